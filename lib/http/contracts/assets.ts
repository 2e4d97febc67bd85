import { z } from "zod";
import { assetStatuses } from "@/db/schema/assets";
import { STORED_CONTENT_TYPES } from "@/lib/storage/media-types";
import { defineOperations } from "./operation";

export const assetSchema = z
  .object({
    id: z.string(),
    kind: z.enum(["upload", "result", "integration"]),
    falRequestId: z.string().nullable().meta({ description: "The provider's request id the file came from" }),
    sourceUrl: z.string().nullable().meta({ description: "Where the bytes came from (the provider URL); null for uploads" }),
    s3Key: z.string(),
    s3Bucket: z.string().meta({ description: "`local` for the embedded disk storage" }),
    contentType: z.string().nullable(),
    sizeBytes: z.int().nullable(),
    status: z.enum(assetStatuses).meta({ description: "pending → stored | failed; deleted once its owner deletes it" }),
    error: z.string().nullable().meta({ description: "Why copying failed (`<code>: <message>`)" }),
    publicUrl: z.string().nullable().meta({ description: "Valid until the asset is deleted; then 404" }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Asset" });

export const activityRecordSchema = z
  .object({
    id: z.string(),
    modelId: z.string().nullable(),
    operation: z.string(),
    credits: z.int().meta({ description: "Credits charged (1 credit = 0.0001 ₽)" }),
    status: z.string(),
    errorCode: z.string().nullable(),
    requestId: z.string().nullable(),
    apiKeyId: z.string().nullable(),
    durationMs: z.int().nullable(),
    createdAt: z.iso.datetime(),
    provider: z.string().nullable().meta({ description: "The service's own extension: the provider the job ended on (null for uploads)" }),
    attempts: z
      .array(z.object({ provider: z.string(), outcome: z.string(), reason: z.string() }))
      .meta({ description: "The providers left before it started there: `refused`, `not_started` or `skipped`, with the reason" }),
  })
  .meta({ id: "ActivityRecord" });

export const assetIdParams = z.object({ id: z.string().min(1).max(128) });
export const falRequestParams = z.object({ falRequestId: z.string().min(1).max(256) });

export const listAssetsQuery = z.object({
  kind: z.enum(["upload", "result", "integration"]).optional(),
  status: z.enum(["pending", "stored", "failed"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const assetList = z
  .object({ items: z.array(assetSchema), total: z.int(), limit: z.int(), offset: z.int() })
  .meta({ id: "AssetList" });

export const deletedAsset = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "DeletedAsset" });
export const activityWithAssets = z
  .object({ record: activityRecordSchema, assets: z.array(assetSchema) })
  .meta({ id: "ActivityWithAssets" });
export const deletedActivityAssets = z.object({ deleted: z.int(), ids: z.array(z.string()) }).meta({ id: "DeletedActivityAssets" });

export const fileParams = z.object({
  key: z.string().meta({ description: "The object key, slashes included (as in an asset's publicUrl)" }),
});

const extension = "The service's own extension (not in the published interface)";
/** A stored file's bytes, served with its own type (the storage knows each by its key's extension). */
const fileContent = Object.fromEntries(STORED_CONTENT_TYPES.map((type) => [type, null]));

export const assetOperations = defineOperations([
  {
    method: "get",
    path: "/me/assets",
    operationId: "listAssets",
    summary: "List your stored files (uploads and re-hosted results)",
    description: `${extension}. Newest first; deleted assets are not listed.`,
    tags: ["Files"],
    surface: "gateway",
    auth: "key",
    query: listAssetsQuery,
    responses: { 200: { description: "Assets", schema: assetList } },
  },
  {
    method: "get",
    path: "/me/assets/{id}",
    operationId: "getAsset",
    summary: "One of your stored files",
    description: `${extension}. Another user's asset is 404, like a missing one.`,
    tags: ["Files"],
    surface: "gateway",
    auth: "key",
    params: assetIdParams,
    responses: { 200: { description: "Asset", schema: assetSchema } },
    errors: ["not_found"],
  },
  {
    method: "delete",
    path: "/me/assets/{id}",
    operationId: "deleteAsset",
    summary: "Delete a stored file",
    description: `${extension}. The object is removed from storage and its URL answers 404 from then on.`,
    tags: ["Files"],
    surface: "gateway",
    auth: "key",
    params: assetIdParams,
    responses: { 200: { description: "Deleted", schema: deletedAsset } },
    errors: ["not_found", "asset_storage_disabled", "storage_unavailable"],
  },
  {
    method: "get",
    path: "/me/activity/{falRequestId}",
    operationId: "getActivityByProviderRequest",
    summary: "An activity record with its assets, by the provider's request id",
    tags: ["Activity"],
    surface: "gateway",
    auth: "key",
    params: falRequestParams,
    responses: { 200: { description: "Record and assets", schema: activityWithAssets } },
    errors: ["not_found"],
  },
  {
    method: "delete",
    path: "/me/activity/{falRequestId}/assets",
    operationId: "deleteActivityAssets",
    summary: "Delete every file of an activity record",
    description: `${extension}. The objects are removed and their URLs answer 404 from then on.`,
    tags: ["Activity"],
    surface: "gateway",
    auth: "key",
    params: falRequestParams,
    responses: { 200: { description: "Deleted", schema: deletedActivityAssets } },
    errors: ["not_found", "asset_storage_disabled", "storage_unavailable"],
  },
  {
    method: "get",
    path: "/files/{key}",
    operationId: "getFile",
    summary: "A stored file (local storage)",
    description:
      `${extension}. Public by unguessable key, like a CDN URL: Content-Type and Content-Length, single byte ` +
      "ranges (206, 416), ETag/If-None-Match (304), and `Cache-Control: public, max-age=31536000, immutable`. " +
      "404 once the asset is deleted. HEAD is answered too.",
    tags: ["Files"],
    surface: "gateway",
    auth: "none",
    params: fileParams,
    responses: {
      200: { description: "The file, in its own type", content: fileContent },
      206: { description: "Part of the file (Range)", content: fileContent },
      304: { description: "Not modified (If-None-Match)" },
      416: { description: "Range not satisfiable" },
    },
    errors: ["not_found"],
  },
]);
