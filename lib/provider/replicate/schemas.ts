import { z } from "zod";

/**
 * Replicate's answers, as far as the client reads them (notes/replicate.md §1; checked against
 * replicate-javascript's lib/predictions.js and index.d.ts). Loose: fields it adds are kept.
 */
export const replicateStatuses = ["starting", "processing", "succeeded", "failed", "canceled", "aborted"] as const;
export type ReplicateStatus = (typeof replicateStatuses)[number];

export const predictionSchema = z.looseObject({
  id: z.string().min(1),
  model: z.string().nullish(),
  version: z.string().nullish(),
  input: z.record(z.string(), z.unknown()).nullish(),
  /** Whatever the model version's output schema says: a URI, a list of URIs, text, an object… */
  output: z.unknown().optional(),
  /** A string; some models put an object here. */
  error: z.unknown().optional(),
  logs: z.string().nullish(),
  /** Unknown statuses are kept as they are (the client treats them as still running). */
  status: z.string().min(1),
  data_removed: z.boolean().nullish(),
  created_at: z.string().nullish(),
  started_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  metrics: z.looseObject({ predict_time: z.number().nullish(), total_time: z.number().nullish() }).nullish(),
});
export type Prediction = z.infer<typeof predictionSchema>;

/** RFC 7807 problem details, the body of every API error. */
export const problemSchema = z.looseObject({
  type: z.string().nullish(),
  title: z.string().nullish(),
  status: z.number().nullish(),
  detail: z.unknown().optional(),
  instance: z.string().nullish(),
  /** Validation failures list each field's problem. */
  invalid_fields: z.array(z.looseObject({ field: z.string().nullish(), description: z.string().nullish() })).nullish(),
});

/** `GET /webhooks/default/secret`. */
export const webhookSecretSchema = z.object({ key: z.string().min(1) });

/** `GET /models/{owner}/{name}`: what the catalog reads of a model. */
export const modelSchema = z.looseObject({
  owner: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  cover_image_url: z.string().nullish(),
  license_url: z.string().nullish(),
  latest_version: z
    .looseObject({
      id: z.string(),
      openapi_schema: z
        .looseObject({ components: z.looseObject({ schemas: z.record(z.string(), z.unknown()).optional() }).optional() })
        .nullish(),
    })
    .nullish(),
});

export const modelPageSchema = z.looseObject({ next: z.string().nullish(), results: z.array(modelSchema) });

/** `POST /files`: the uploaded file; `urls.get` is what a prediction's input takes. */
export const fileSchema = z.looseObject({ id: z.string(), urls: z.looseObject({ get: z.string().min(1) }) });
