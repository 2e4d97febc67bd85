import { withFalErrors } from "@/lib/fal-protocol/errors";
import { receiveSignedUpload } from "@/lib/fal-protocol/storage";
import { falOperations } from "@/lib/http/contracts/fal";
import { decorated, withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// PUT /fal/storage/upload/{token} – the upload_url of fal's storage protocol: the file's bytes,
// stored once as the upload the signed token names (no key: fal's clients send none here).
export const PUT = decorated(
  withGateway(falOperations.falUploadPut, async ({ req, ctx, params }) => json(await receiveSignedUpload(ctx.db, params.token, req))),
  withFalErrors,
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, HEAD, POST, PATCH, DELETE, OPTIONS } = otherMethodsOf({ PUT });
