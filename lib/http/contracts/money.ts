import { z } from "zod";
import { transactionTypes } from "@/db/schema";
import { historyRangeProblem } from "@/lib/billing/usage/history-range";
import { defaultUsageWindows, historyGranularities, MAX_HISTORY_BUCKETS, usageWindowNames } from "@/lib/billing/usage/windows";
import { windowUsageSchema } from "./admin-users";
import { limitQuery, offsetQuery } from "./models";
import { defineOperations } from "./operation";

const timestamp = z.iso.datetime();
const credits = (description: string) => z.int().meta({ description: `${description}, in credits (1 credit = 0.0001 ₽)` });
const windowList = usageWindowNames.join(", ");

// ---- query building blocks -------------------------------------------------------------------
export const usageWindowQuery = z
  .enum(usageWindowNames)
  .default("30d")
  .meta({ description: `One of ${windowList}; ends now. Default 30d` });

/** A comma-separated list of windows; repeats are dropped, an empty list means the default. */
export const usageWindowsQuery = z
  .string()
  .max(256)
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(usageWindowNames)).max(usageWindowNames.length * 2))
  .transform((list) => (list.length ? [...new Set(list)] : defaultUsageWindows))
  .meta({ description: `Comma-separated windows, each one of ${windowList}; default 24h,7d,30d` });

export const transactionTypeQuery = z.enum(transactionTypes).optional().meta({ description: "Only rows of this type" });

export const transactionsQuery = z.object({ limit: limitQuery, offset: offsetQuery, type: transactionTypeQuery });
export const usageQuery = z.object({ windows: usageWindowsQuery });
export const usageByQuery = z.object({ window: usageWindowQuery });

export const historyQuery = z
  .object({
    from: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: "Start, inclusive (ISO 8601). Default: `to` minus 24h (hour), 30d (day) or 12 weeks (week)" }),
    to: z.iso.datetime({ offset: true }).optional().meta({ description: "End, exclusive (ISO 8601). Default: now" }),
    granularity: z
      .enum(historyGranularities)
      .default("day")
      .meta({ description: "Bucket size: hour, day or week (UTC; weeks start on Monday). Default day" }),
  })
  .superRefine((q, ctx) => {
    const problem = historyRangeProblem(q);
    if (problem) ctx.addIssue({ code: "custom", path: ["from"], message: problem });
  });

// ---- responses ---------------------------------------------------------------------------------
export const gatewayBalanceSchema = z
  .object({ userId: z.string(), balance: credits("Balance") })
  .meta({ id: "Balance", examples: [{ userId: "usr_8c1f2a", balance: 4_949_982 }] });

export const skillBalanceSchema = z
  .object({
    balance_rub: z.number().meta({ description: "Balance in rubles (exact to 0.0001 ₽)" }),
    tier: z.int().min(1).max(4).meta({ description: "1 (under 1,000 ₽ spent), 2 (from 1,000 ₽), 3 (from 10,000 ₽), 4 (from 100,000 ₽)" }),
    rate_limit: z.int().meta({ description: "POST /api/v1/generate requests per minute at this tier" }),
    total_spent_rub: z.number().meta({ description: "Rubles ever spent on generations, net of refunds; counted toward tier promotion" }),
  })
  .meta({ id: "SkillBalance", examples: [{ balance_rub: 494.9982, tier: 1, rate_limit: 10, total_spent_rub: 5.0018 }] });

export const transactionSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    type: z.enum(transactionTypes),
    amount: credits("Signed amount: positive adds to the balance, negative takes from it"),
    balanceAfter: credits("The balance right after this move"),
    description: z.string().nullable(),
    createdAt: timestamp,
  })
  .meta({
    id: "CreditTransaction",
    examples: [
      {
        id: "txn_5b7e21",
        userId: "usr_8c1f2a",
        type: "generation_reserve",
        amount: -23593,
        balanceAfter: 4_949_982,
        description: "fal-ai/flux/dev",
        createdAt: "2026-11-28T10:15:00.000Z",
      },
    ],
  });

export const transactionListSchema = z
  .object({ items: z.array(transactionSchema), total: z.int(), limit: z.int(), offset: z.int() })
  .meta({ id: "CreditTransactionList" });

export const meUsageSchema = z.object({ balance: credits("Balance"), windows: z.array(windowUsageSchema) }).meta({ id: "Usage" });

export const usageHistorySchema = z
  .object({
    granularity: z.enum(historyGranularities),
    from: timestamp,
    to: timestamp,
    series: z.array(
      z.object({
        bucket: timestamp.meta({ description: "UTC start of the bucket; every bucket of the range is present, empty ones with zeros" }),
        credits: credits("Charged in the bucket"),
        count: z.int(),
      }),
    ),
  })
  .meta({ id: "UsageHistory", description: `At most ${MAX_HISTORY_BUCKETS} buckets` });

export const usageByModelSchema = z
  .object({
    items: z.array(
      z.object({
        modelId: z.string(),
        displayName: z.string().nullable().meta({ description: "null when the model is no longer in the catalog" }),
        priceUnit: z.string().nullable(),
        credits: credits("Charged in the window"),
        count: z.int(),
      }),
    ),
  })
  .meta({ id: "UsageByModel" });

export const usageByKeySchema = z
  .object({
    items: z.array(
      z.object({
        apiKeyId: z.string().nullable().meta({ description: "null for operations made from the dashboard" }),
        keyName: z.string().nullable().meta({ description: "null for the dashboard or a deleted key" }),
        partialKey: z.string().nullable().meta({ description: "The key's first characters, e.g. `gw_live_AbC…`" }),
        credits: credits("Charged in the window"),
        count: z.int(),
        lastUsedAt: timestamp.meta({ description: "The latest operation with this key in the window" }),
      }),
    ),
  })
  .meta({ id: "UsageByKey" });

const me = { tags: ["Money"], surface: "gateway" as const, auth: "key" as const };

export const moneyOperations = defineOperations([
  {
    ...me,
    method: "get",
    path: "/me/balance",
    operationId: "getBalance",
    summary: "Your balance in credits",
    responses: { 200: { description: "The balance", schema: gatewayBalanceSchema } },
  },
  {
    ...me,
    method: "get",
    path: "/me/transactions",
    operationId: "listTransactions",
    summary: "Your ledger, newest first",
    query: transactionsQuery,
    responses: { 200: { description: "A page of transactions", schema: transactionListSchema } },
  },
  {
    ...me,
    method: "get",
    path: "/me/usage",
    operationId: "getUsage",
    summary: "Spend and operations per window, by model (sandbox runs left out)",
    query: usageQuery,
    responses: { 200: { description: "Usage by window", schema: meUsageSchema } },
  },
  {
    ...me,
    method: "get",
    path: "/me/usage/history",
    operationId: "getUsageHistory",
    summary: "Spend over time in UTC buckets, zero-filled",
    query: historyQuery,
    responses: { 200: { description: "A time series", schema: usageHistorySchema } },
  },
  {
    ...me,
    method: "get",
    path: "/me/usage/by-model",
    operationId: "getUsageByModel",
    summary: "Spend per model over a window, most expensive first",
    query: usageByQuery,
    responses: { 200: { description: "Spend per model", schema: usageByModelSchema } },
  },
  {
    ...me,
    method: "get",
    path: "/me/usage/by-key",
    operationId: "getUsageByKey",
    summary: "Spend per API key over a window, most expensive first",
    query: usageByQuery,
    responses: { 200: { description: "Spend per key", schema: usageByKeySchema } },
  },
  {
    method: "get",
    path: "/api/v1/balance",
    operationId: "skillGetBalance",
    summary: "Balance in rubles, tier and rate limit",
    tags: ["Skill"],
    surface: "skill",
    auth: "key",
    responses: { 200: { description: "Balance", schema: skillBalanceSchema } },
  },
]);
