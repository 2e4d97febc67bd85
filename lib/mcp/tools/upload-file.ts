import { Readable } from "node:stream";
import { env } from "@/lib/core/env";
import { getStorage } from "@/lib/storage";
import { decodeJsonUpload, jsonUploadBody } from "@/lib/uploads/json-upload";
import { toUploadedFile } from "@/lib/uploads/present";
import { asSkillUploadError } from "@/lib/uploads/receive-upload";
import { storeUpload } from "@/lib/uploads/store-upload";
import { dataResult, defineTool } from "../tool";

export const uploadFile = defineTool({
  name: "upload_file",
  title: "Upload a file",
  description:
    "Stores a file for use as a model input and returns its URLs: pass `provider_url` as the model's image_url, audio_url " +
    "or similar parameter. Send the bytes as base64 in `data` with `mime_type`, or as a data URL (data:image/png;base64,…). " +
    "Images (jpeg, png, webp, gif, avif, heic), video/mp4 and audio (mp3, wav, webm, mp4, ogg, flac) are accepted, up to the " +
    "server's upload limit; the type is checked against the bytes.",
  input: jsonUploadBody,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (body, { ctx }) => {
    try {
      // The same checks as POST /api/v1/upload with a JSON body: storage first, then decoding, size and type.
      const storage = getStorage();
      const maxBytes = env().MAX_UPLOAD_BYTES;
      const decoded = decodeJsonUpload(body, maxBytes);
      const stored = await storeUpload(
        ctx.db,
        storage,
        ctx.principal.userId,
        { ...decoded, stream: Readable.from([decoded.bytes]) },
        maxBytes,
      );
      return dataResult(toUploadedFile(stored));
    } catch (err) {
      throw asSkillUploadError(err);
    }
  },
});
