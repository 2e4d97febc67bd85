import { z } from "zod";
import { createKeyBody, updateKeyBody } from "@/lib/account/keys/key-input";
import { defineOperations } from "./operation";

const timestamp = z.iso.datetime();

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: "`<prefix>_live` or `<prefix>_test` (sandbox)" }),
    start: z.string().meta({ description: "The first characters of the key, to recognise it" }),
    enabled: z.boolean(),
    expiresAt: timestamp.nullable(),
    createdAt: timestamp,
    lastRequest: timestamp.nullable().meta({ description: "Last authenticated request made with the key" }),
    requestCount: z.int().meta({ description: "Requests inside the key's current rate-limit window" }),
    requests: z.int().meta({ description: "Requests ever served with the key" }),
    lastUsedAt: timestamp.nullable().meta({ description: "Last billed generation made with the key" }),
    lifetimeCostRub: z.int().meta({ description: "Rubles ever charged through the key (rounded)" }),
    monthlyLimitRub: z
      .int()
      .nullable()
      .meta({ description: "Spending cap per UTC calendar month in rubles; null means none (429 key_limit_exceeded past it)" }),
  })
  .meta({
    id: "ApiKey",
    examples: [
      {
        id: "key_01jd8x2m4q",
        name: "Production",
        prefix: "gw_live",
        start: "gw_live_4fK9",
        enabled: true,
        expiresAt: null,
        createdAt: "2026-11-02T08:00:00.000Z",
        lastRequest: "2026-11-28T10:14:59.000Z",
        requestCount: 12,
        requests: 5310,
        lastUsedAt: "2026-11-28T10:14:59.000Z",
        lifetimeCostRub: 1840,
        monthlyLimitRub: 5000,
      },
    ],
  });

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) }).meta({ id: "ApiKeyList" });

export const createdKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z.string().meta({ description: "The full key. Shown this once: only its hash is stored" }),
    prefix: z.string(),
    start: z.string(),
    expiresAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({
    id: "CreatedApiKey",
    examples: [
      {
        id: "key_01jd8x2m4q",
        name: "Production",
        key: "gw_live_4fK9sQ2xVbN7mTz1Lr8cYh3JpWd6aE0u",
        prefix: "gw_live",
        start: "gw_live_4fK9",
        expiresAt: null,
        createdAt: "2026-11-02T08:00:00.000Z",
      },
    ],
  });

export const keyIdParams = z.object({ id: z.string().min(1).max(64) });

export const keyOperations = defineOperations([
  {
    method: "get",
    path: "/me/keys",
    operationId: "listApiKeys",
    summary: "List your API keys (never their values)",
    tags: ["API keys"],
    surface: "gateway",
    auth: "key",
    responses: { 200: { description: "Your keys, newest first", schema: apiKeyListSchema } },
  },
  {
    method: "post",
    path: "/me/keys",
    operationId: "createApiKey",
    summary: "Create an API key (dashboard session only); the full key is returned once",
    tags: ["API keys"],
    surface: "gateway",
    auth: "session",
    body: createKeyBody,
    responses: { 201: { description: "Created", schema: createdKeySchema } },
  },
  {
    method: "patch",
    path: "/me/keys/{id}",
    operationId: "updateApiKey",
    summary: "Rename a key, set its monthly cap or enable/disable it",
    description:
      "With an API key only `name` may change; the cap and `enabled` are dashboard-only (403), so a leaked key cannot lift its own limits.",
    tags: ["API keys"],
    surface: "gateway",
    auth: "key",
    params: keyIdParams,
    body: updateKeyBody,
    errors: ["not_found"],
    responses: { 200: { description: "The updated key", schema: apiKeySchema } },
  },
  {
    method: "delete",
    path: "/me/keys/{id}",
    operationId: "deleteApiKey",
    summary: "Delete a key; it stops authenticating at once",
    tags: ["API keys"],
    surface: "gateway",
    auth: "key",
    params: keyIdParams,
    errors: ["not_found"],
    responses: { 204: { description: "Deleted" } },
  },
]);
