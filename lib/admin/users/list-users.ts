import { and, count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "@/db/client";
import { balances, users } from "@/db/schema";
import type { listUsersQuery } from "./inputs";
import { bannedNow } from "./banned-now";

/** `%`, `_` and `\` typed by the admin are matched literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function filters(query: z.output<typeof listUsersQuery>): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) {
    const pattern = `%${likeEscape(query.q)}%`;
    conditions.push(or(ilike(users.email, pattern), ilike(users.name, pattern)));
  }
  if (query.role) conditions.push(eq(users.role, query.role));
  if (query.banned) conditions.push(query.banned === "true" ? bannedNow() : sql`not ${bannedNow()}`);
  return and(...conditions);
}

/** GET /admin/users: newest first (users_created_idx / users_role_created_idx), with balances. */
export async function listUsers(db: Executor, query: z.output<typeof listUsersQuery>) {
  const where = filters(query);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        banned: bannedNow(),
        createdAt: users.createdAt,
        balance: sql<number>`coalesce(${balances.credits}, 0)`.mapWith(Number),
      })
      .from(users)
      .leftJoin(balances, eq(balances.userId, users.id))
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return {
    items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    total: total?.n ?? 0,
    limit: query.limit,
    offset: query.offset,
  };
}
