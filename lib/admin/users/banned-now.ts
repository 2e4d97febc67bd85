import { sql } from "drizzle-orm";
import { users } from "@/db/schema";

/** A ban is in force when set and not yet lapsed (the same rule lib/auth/resolve.ts applies). */
export const bannedNow = () =>
  sql<boolean>`(${users.banned} and (${users.banExpires} is null or ${users.banExpires} > now()))`.mapWith(Boolean);
