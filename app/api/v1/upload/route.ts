import { uploadOperations } from "@/lib/http/contracts/uploads";
import { withSkill } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { toUploadedFile } from "@/lib/uploads/present";
import { asSkillUploadError, receiveUpload } from "@/lib/uploads/receive-upload";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /api/v1/upload – upload an input file (multipart `file`, or JSON {data, mime_type, filename})
export const POST = withSkill(uploadOperations.skillUpload, async ({ req, ctx }) => {
  try {
    return json(toUploadedFile(await receiveUpload(ctx, req, { allowJson: true })));
  } catch (err) {
    throw asSkillUploadError(err);
  }
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
