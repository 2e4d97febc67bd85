import { z } from "zod";
import { userRoles } from "@/db/schema";
import { updateMeBody } from "@/lib/account/profile-input";
import { defineOperations } from "./operation";

const timestamp = z.iso.datetime();

export const profileSchema = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    image: z.string().nullable(),
    role: z.enum(userRoles),
    createdAt: timestamp,
    lowBalanceEmailOptOut: z.boolean(),
  })
  .meta({ id: "Profile" });

export const meResponse = z
  .object({
    user: profileSchema,
    auth: z.object({
      source: z.enum(["api_key", "session"]),
      apiKeyId: z.string().nullable().meta({ description: "The key that authenticated this request, if any" }),
    }),
  })
  .meta({ id: "Me" });

export const updateMeResponse = z.object({ user: profileSchema }).meta({ id: "ProfileResult" });

export const sessionSchema = z
  .object({
    id: z.string(),
    expiresAt: timestamp,
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    current: z.boolean().meta({ description: "The session this request was made with" }),
  })
  .meta({ id: "Session" });

export const sessionListSchema = z.object({ sessions: z.array(sessionSchema) }).meta({ id: "SessionList" });

export const sessionIdParams = z.object({ id: z.string().min(1).max(64) });

export const webhookSecretSchema = z
  .object({
    secret: z.string().meta({ description: "Standard Webhooks signing secret, `whsec_<base64>`" }),
  })
  .meta({ id: "WebhookSecret" });

export const meOperations = defineOperations([
  {
    method: "get",
    path: "/me",
    operationId: "getMe",
    summary: "Who is calling: the user and how the request was authenticated",
    tags: ["Me"],
    surface: "gateway",
    auth: "key",
    responses: { 200: { description: "The current user", schema: meResponse } },
  },
  {
    method: "patch",
    path: "/me",
    operationId: "updateMe",
    summary: "Update your name, avatar or low-balance e-mail preference",
    tags: ["Me"],
    surface: "gateway",
    auth: "key",
    body: updateMeBody,
    responses: { 200: { description: "The updated profile", schema: updateMeResponse } },
  },
  {
    method: "get",
    path: "/me/sessions",
    operationId: "listSessions",
    summary: "Your signed-in browser sessions",
    tags: ["Me"],
    surface: "gateway",
    auth: "key",
    responses: { 200: { description: "Active sessions, newest first", schema: sessionListSchema } },
  },
  {
    method: "delete",
    path: "/me/sessions/{id}",
    operationId: "revokeSession",
    summary: "Revoke (sign out) one of your sessions",
    tags: ["Me"],
    surface: "gateway",
    auth: "key",
    params: sessionIdParams,
    errors: ["not_found"],
    responses: { 204: { description: "Revoked" } },
  },
  {
    method: "get",
    path: "/me/webhook-secret",
    operationId: "getWebhookSecret",
    summary: "The secret your completion callbacks are signed with (created on first read)",
    tags: ["Me"],
    surface: "gateway",
    auth: "key",
    responses: { 200: { description: "The signing secret", schema: webhookSecretSchema } },
  },
  {
    method: "post",
    path: "/me/webhook-secret/rotate",
    operationId: "rotateWebhookSecret",
    summary: "Replace the webhook signing secret (dashboard session only)",
    tags: ["Me"],
    surface: "gateway",
    auth: "session",
    responses: { 200: { description: "The new signing secret", schema: webhookSecretSchema } },
  },
]);
