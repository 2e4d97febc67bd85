import type { StoredUpload } from "./store-upload";

/** Gateway `POST /me/uploads` → Upload result. */
export function toUploadResult({ asset }: StoredUpload) {
  return { assetId: asset.id, url: asset.publicUrl!, contentType: asset.contentType!, sizeBytes: asset.sizeBytes! };
}

/** Skill `POST /api/v1/upload` → UploadedFile. `url` lives until deleted; `provider_url` until expires_at (null: never). */
export function toUploadedFile({ asset, upload, providerUrl }: StoredUpload) {
  return {
    file_id: upload.id,
    url: asset.publicUrl!,
    provider_url: providerUrl,
    mime_type: upload.mimeType,
    size_bytes: upload.sizeBytes,
    expires_at: upload.expiresAt ? upload.expiresAt.toISOString() : null,
  };
}
