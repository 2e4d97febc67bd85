import { z } from "zod";
import { userRoles } from "@/db/schema";
import { adminUpdateKeyBody, banBody, listUsersQuery } from "@/lib/admin/users/inputs";
import { usageWindowNames } from "@/lib/billing/usage/windows";
import { apiKeyListSchema } from "./keys";
import { sessionListSchema } from "./me";
import { defineOperations } from "./operation";

const timestamp = z.iso.datetime();
const credits = (description: string) => z.int().meta({ description });

export const adminUserListItem = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    role: z.enum(userRoles),
    banned: z.boolean().meta({ description: "A ban is in force now (a lapsed one reads false)" }),
    createdAt: timestamp,
    balance: credits("Balance in credits (1 credit = 0.0001 ₽)"),
  })
  .meta({ id: "AdminUserListItem" });

export const adminUserList = z
  .object({ items: z.array(adminUserListItem), total: z.int(), limit: z.int(), offset: z.int() })
  .meta({ id: "AdminUserList" });

export const adminUserSchema = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    image: z.string().nullable(),
    role: z.enum(userRoles),
    createdAt: timestamp,
    banned: z.boolean(),
    banReason: z.string().nullable(),
    banExpires: timestamp.nullable(),
    updatedAt: timestamp,
  })
  .meta({ id: "AdminUser" });

export const windowUsageSchema = z
  .object({
    window: z.enum(usageWindowNames).meta({ description: "The window, ending now" }),
    credits: credits("Credits charged in the window"),
    count: z.int(),
    byModel: z.array(z.object({ modelId: z.string(), credits: z.int(), count: z.int() })),
  })
  .meta({ id: "WindowUsage" });

export const adminUserDetail = z
  .object({ user: adminUserSchema, balance: credits("Balance in credits"), usage: z.array(windowUsageSchema) })
  .meta({ id: "AdminUserDetail" });

export const okSchema = z.object({ ok: z.boolean() }).meta({ id: "Ok" });

export const adminKeyView = z
  .object({
    id: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    rateLimitEnabled: z.boolean(),
    rateLimitTimeWindow: z.int().meta({ description: "Sliding window length in milliseconds" }),
    rateLimitMax: z.int().meta({ description: "Requests allowed per window (the default unless overridden)" }),
    remaining: z.int().nullable().meta({ description: "Requests left in the current window; null when the limit is off" }),
    monthlyLimitRub: z.int().nullable(),
    expiresAt: timestamp.nullable(),
    updatedAt: timestamp,
  })
  .meta({ id: "AdminApiKey" });

export const userIdParams = z.object({ id: z.string().min(1).max(64) });
export const userKeyParams = z.object({ id: z.string().min(1).max(64), keyId: z.string().min(1).max(64) });

const admin = { tags: ["Admin: users"], surface: "gateway" as const, auth: "admin" as const };

export const adminUserOperations = defineOperations([
  {
    ...admin,
    method: "get",
    path: "/admin/users",
    operationId: "adminListUsers",
    summary: "List users, newest first",
    query: listUsersQuery,
    responses: { 200: { description: "A page of users", schema: adminUserList } },
  },
  {
    ...admin,
    method: "get",
    path: "/admin/users/{id}",
    operationId: "adminGetUser",
    summary: "A user with balance and usage",
    params: userIdParams,
    errors: ["not_found"],
    responses: { 200: { description: "The user", schema: adminUserDetail } },
  },
  {
    ...admin,
    method: "post",
    path: "/admin/users/{id}/ban",
    operationId: "adminBanUser",
    summary: "Ban a user: keys and sessions get 403 until the ban lifts; sessions are revoked",
    params: userIdParams,
    body: banBody,
    errors: ["not_found"],
    responses: { 200: { description: "Banned", schema: okSchema } },
  },
  {
    ...admin,
    method: "post",
    path: "/admin/users/{id}/unban",
    operationId: "adminUnbanUser",
    summary: "Lift a ban",
    params: userIdParams,
    errors: ["not_found"],
    responses: { 200: { description: "Unbanned", schema: okSchema } },
  },
  {
    ...admin,
    method: "get",
    path: "/admin/users/{id}/sessions",
    operationId: "adminListUserSessions",
    summary: "A user's live sessions",
    params: userIdParams,
    errors: ["not_found"],
    responses: { 200: { description: "Sessions", schema: sessionListSchema } },
  },
  {
    ...admin,
    method: "delete",
    path: "/admin/users/{id}/sessions",
    operationId: "adminRevokeUserSessions",
    summary: "Sign a user out everywhere",
    params: userIdParams,
    errors: ["not_found"],
    responses: { 204: { description: "Revoked" } },
  },
  {
    ...admin,
    method: "get",
    path: "/admin/users/{id}/keys",
    operationId: "adminListUserKeys",
    summary: "A user's API keys",
    params: userIdParams,
    errors: ["not_found"],
    responses: { 200: { description: "Keys", schema: apiKeyListSchema } },
  },
  {
    ...admin,
    method: "patch",
    path: "/admin/users/{id}/keys/{keyId}",
    operationId: "adminUpdateUserKey",
    summary: "Tune a user's key: name, cap, enabled and its rate limit",
    params: userKeyParams,
    body: adminUpdateKeyBody,
    errors: ["not_found"],
    responses: { 200: { description: "The key tuning view", schema: z.object({ key: adminKeyView }).meta({ id: "AdminApiKeyResult" }) } },
  },
  {
    ...admin,
    method: "delete",
    path: "/admin/users/{id}/keys/{keyId}",
    operationId: "adminDeleteUserKey",
    summary: "Delete a user's key",
    params: userKeyParams,
    errors: ["not_found"],
    responses: { 204: { description: "Deleted" } },
  },
]);
