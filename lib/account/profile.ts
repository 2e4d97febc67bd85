import type { ServiceContext } from "@/lib/auth/context";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { users } from "@/db/schema";
import type { updateMeBody } from "./profile-input";
import { notFound } from "@/lib/core/errors";

const profileColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  image: users.image,
  role: users.role,
  createdAt: users.createdAt,
  lowBalanceEmailOptOut: users.lowBalanceEmailOptOut,
};

type ProfileRow = Pick<typeof users.$inferSelect, keyof typeof profileColumns>;

const toProfile = (row: ProfileRow) => ({ ...row, createdAt: row.createdAt.toISOString() });

export type Profile = ReturnType<typeof toProfile>;

export async function getProfile({ db, principal: { userId } }: ServiceContext): Promise<Profile> {
  const [row] = await db.select(profileColumns).from(users).where(eq(users.id, userId));
  if (!row) throw notFound("User");
  return toProfile(row);
}

export async function updateProfile({ db, principal: { userId } }: ServiceContext, patch: z.output<typeof updateMeBody>): Promise<Profile> {
  const [row] = await db
    .update(users)
    .set({ name: patch.name, image: patch.image, lowBalanceEmailOptOut: patch.lowBalanceEmailOptOut })
    .where(eq(users.id, userId))
    .returning(profileColumns);
  if (!row) throw notFound("User");
  return toProfile(row);
}
