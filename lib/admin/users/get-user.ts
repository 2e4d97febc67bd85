import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { balances, users } from "@/db/schema";
import { notFound } from "@/lib/core/errors";
import { bannedNow } from "./banned-now";
import { windowUsage } from "@/lib/billing/usage/window-usage";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The admin view of a user; 404 when there is no such user. */
export async function getAdminUserOrThrow(db: Executor, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      image: users.image,
      role: users.role,
      createdAt: users.createdAt,
      banned: bannedNow(),
      banReason: users.banReason,
      banExpires: users.banExpires,
      updatedAt: users.updatedAt,
      balance: sql<number>`coalesce(${balances.credits}, 0)`.mapWith(Number),
    })
    .from(users)
    .leftJoin(balances, eq(balances.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) throw notFound("User");
  const { balance, ...user } = row;
  return {
    user: { ...user, createdAt: user.createdAt.toISOString(), banExpires: iso(user.banExpires), updatedAt: user.updatedAt.toISOString() },
    balance,
  };
}

export async function getUserDetail(db: Executor, userId: string) {
  const { user, balance } = await getAdminUserOrThrow(db, userId);
  return { user, balance, usage: await windowUsage(db, userId) };
}

/** Throws 404 unless the user exists: admin sub-resources of a missing user are missing too. */
export async function assertUserExists(db: Executor, userId: string): Promise<void> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!row) throw notFound("User");
}
