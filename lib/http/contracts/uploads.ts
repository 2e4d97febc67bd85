import { z } from "zod";
import { jsonUploadBody } from "@/lib/uploads/json-upload";
import { defineOperations } from "./operation";

const binaryFile = z.string().meta({
  format: "binary",
  description:
    "The file. Its type is decided by its bytes: images (jpeg, png, webp, gif, avif, heic/heif), video/mp4, audio " +
    "(audio/mpeg, audio/mp3, audio/wav, audio/wave, audio/x-wav, audio/webm, audio/mp4, audio/ogg, audio/flac). " +
    "A declared type the bytes contradict is refused. At most MAX_UPLOAD_BYTES (10 MiB by default).",
});

export const multipartUploadBody = z.object({ file: binaryFile }).meta({ id: "MultipartUpload" });

export const uploadResult = z
  .object({
    assetId: z.string(),
    url: z.url().meta({ description: "The file's URL; valid until the asset is deleted" }),
    contentType: z.string(),
    sizeBytes: z.int(),
  })
  .meta({ id: "UploadResult" });

export const uploadedFile = z
  .object({
    file_id: z.uuid(),
    url: z.url().meta({ description: "For display; valid until the file is deleted (DELETE /me/assets/{file_id})" }),
    provider_url: z.url().meta({ description: "For use in generations (image_url, audio_url, …)" }),
    mime_type: z.string(),
    size_bytes: z.int(),
    expires_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: "When provider_url stops working; null when it lives as long as the file (local storage)" }),
  })
  .meta({ id: "UploadedFile" });

export const uploadOperations = defineOperations([
  {
    method: "post",
    path: "/me/uploads",
    operationId: "createUpload",
    summary: "Upload an input file (image, mp4 or audio)",
    description:
      "Multipart form with one field `file`. The body is streamed: a file over MAX_UPLOAD_BYTES is refused with 413 " +
      "as soon as it passes the limit. 503 asset_storage_disabled when the server has no file storage, " +
      "503 storage_unavailable (with `failure` and Retry-After) while its storage fails.",
    tags: ["Files"],
    surface: "gateway",
    auth: "key",
    body: multipartUploadBody,
    bodyContentType: "multipart/form-data",
    responses: { 201: { description: "Stored", schema: uploadResult } },
    errors: ["invalid_body", "asset_too_large", "unsupported_media_type", "asset_storage_disabled", "storage_unavailable"],
  },
  {
    method: "post",
    path: "/api/v1/upload",
    operationId: "skillUpload",
    summary: "Upload an input file for a generation",
    description:
      "multipart/form-data with `file`, or JSON `{data, mime_type, filename}` where data is base64 or a data URL. " +
      "A file whose format is not accepted (or whose bytes contradict its declared type, or that is empty or " +
      "corrupt) answers 400 with `details.reason`; a file over MAX_UPLOAD_BYTES answers 413.",
    tags: ["Skill"],
    surface: "skill",
    auth: "key",
    body: multipartUploadBody,
    bodyContentType: "multipart/form-data",
    extraBodies: [{ contentType: "application/json", schema: jsonUploadBody }],
    responses: { 200: { description: "Stored", schema: uploadedFile } },
    errors: ["invalid_body", "invalid_json", "asset_too_large", "asset_storage_disabled", "storage_unavailable"],
  },
]);
