import { z } from "zod";
import { userIdParams, windowUsageSchema } from "./admin-users";
import { limitQuery, offsetQuery } from "./models";
import { transactionListSchema, transactionSchema, transactionsQuery, transactionTypeQuery, usageQuery, usageWindowQuery } from "./money";
import { defineOperations } from "./operation";

const credits = (description: string) => z.int().meta({ description: `${description}, in credits (1 credit = 0.0001 ₽)` });

export const adminStatsSchema = z
  .object({
    users: z.int(),
    activeApiKeys: z.int().meta({ description: "Enabled keys that have not expired" }),
    models: z.int().meta({ description: "Models in the catalog, hidden ones included" }),
    credits: z.object({
      issued: credits("Top-ups and grants, net of clawbacks"),
      used: credits("Charged for generations, net of refunds"),
    }),
    providers: z
      .array(
        z.object({
          provider: z.string(),
          jobs: z.int().meta({ description: "Jobs it carries or carried (sandbox ones included)" }),
          completed: z.int(),
          failed: z.int(),
          failovers: z
            .int()
            .meta({ description: "Jobs that left it before they started there: it refused the submit, or missed the start deadline" }),
          startLatencyMs: z
            .object({ p50: z.int().nullable(), p95: z.int().nullable() })
            .meta({ description: "From its acceptance to the start, over the jobs it served that started; null: none" }),
          costCredits: credits("What it charges for its completed jobs (known costs only; sandbox jobs excluded)"),
          costUnknownJobs: z
            .int()
            .meta({ description: "Completed jobs whose cost is unknown (the route has no cost), not in costCredits" }),
          revenueCredits: credits("What the users were charged for its completed jobs (sandbox jobs excluded)"),
          marginCredits: credits("revenueCredits − costCredits"),
        }),
      )
      .meta({ description: "Each provider's jobs and money, over every job, by provider name" }),
  })
  .meta({ id: "AdminStats" });

/** The most an admin moves in one request: 10,000,000 ₽. */
export const MAX_ADMIN_CREDITS = 100_000_000_000;

export const adminCreditsBody = z
  .object({
    amount: z.int().min(1).max(MAX_ADMIN_CREDITS).meta({ description: "Credits (1 credit = 0.0001 ₽), at least 1" }),
    description: z.string().trim().max(500).nullish().meta({ description: "Shown in the user's transaction list" }),
  })
  .meta({ id: "AdminCredits" });

export const adminCreditsResult = z.object({ transaction: transactionSchema }).meta({ id: "AdminCreditsResult" });

export const adminTransactionsQuery = z.object({
  limit: limitQuery,
  offset: offsetQuery,
  userId: z.string().min(1).max(64).optional().meta({ description: "Only this user's rows" }),
  type: transactionTypeQuery,
});

export const topUsersQuery = z.object({
  window: usageWindowQuery,
  limit: z.coerce.number().int().min(1).max(200).default(10).meta({ description: "1 to 200, default 10" }),
});

export const topUsersSchema = z
  .object({
    window: z.string(),
    items: z.array(
      z.object({
        userId: z.string(),
        email: z.string().nullable(),
        name: z.string().nullable(),
        credits: credits("Charged in the window"),
        count: z.int(),
      }),
    ),
  })
  .meta({ id: "TopUsers" });

export const adminUserUsageSchema = z.object({ windows: z.array(windowUsageSchema) }).meta({ id: "AdminUserUsage" });

const admin = { tags: ["Admin: money"], surface: "gateway" as const, auth: "admin" as const };

export const adminMoneyOperations = defineOperations([
  {
    ...admin,
    method: "get",
    path: "/admin/stats",
    operationId: "adminStats",
    summary: "Users, active keys, models, credits issued and used, and each provider's jobs and margin",
    responses: { 200: { description: "Statistics", schema: adminStatsSchema } },
  },
  {
    ...admin,
    method: "post",
    path: "/admin/users/{id}/credits/grant",
    operationId: "adminGrantCredits",
    summary: "Add credits to a user's balance (a `grant` ledger row; each request is a new grant)",
    params: userIdParams,
    body: adminCreditsBody,
    errors: ["not_found"],
    responses: { 201: { description: "The ledger row", schema: adminCreditsResult } },
  },
  {
    ...admin,
    method: "post",
    path: "/admin/users/{id}/credits/clawback",
    operationId: "adminClawbackCredits",
    summary: "Take credits back; never below zero: the row's amount is what was actually taken",
    params: userIdParams,
    body: adminCreditsBody,
    errors: ["not_found"],
    responses: { 201: { description: "The ledger row", schema: adminCreditsResult } },
  },
  {
    ...admin,
    method: "get",
    path: "/admin/users/{id}/transactions",
    operationId: "adminListUserTransactions",
    summary: "A user's ledger, newest first",
    params: userIdParams,
    query: transactionsQuery,
    errors: ["not_found"],
    responses: { 200: { description: "A page of transactions", schema: transactionListSchema } },
  },
  {
    ...admin,
    method: "get",
    path: "/admin/users/{id}/usage",
    operationId: "adminGetUserUsage",
    summary: "A user's spend per window, by model",
    params: userIdParams,
    query: usageQuery,
    errors: ["not_found"],
    responses: { 200: { description: "Usage by window", schema: adminUserUsageSchema } },
  },
  {
    ...admin,
    method: "get",
    path: "/admin/transactions",
    operationId: "adminListTransactions",
    summary: "The ledger across users, newest first",
    query: adminTransactionsQuery,
    responses: { 200: { description: "A page of transactions", schema: transactionListSchema } },
  },
  {
    ...admin,
    method: "get",
    path: "/admin/usage/top-users",
    operationId: "adminTopUsers",
    summary: "The biggest spenders over a window",
    query: topUsersQuery,
    responses: { 200: { description: "Users by spend", schema: topUsersSchema } },
  },
]);
