import { uploadOperations } from "@/lib/http/contracts/uploads";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { toUploadResult } from "@/lib/uploads/present";
import { receiveUpload } from "@/lib/uploads/receive-upload";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /me/uploads – upload an input file (multipart `file`, streamed; 413 past MAX_UPLOAD_BYTES)
export const POST = withGateway(uploadOperations.createUpload, async ({ req, ctx }) =>
  json(toUploadResult(await receiveUpload(ctx, req, { allowJson: false })), { status: 201 }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
