import type { ServiceContext } from "@/lib/auth/context";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { isDomainError } from "@/lib/core/errors";
import type { Principal } from "./principal";
import { resolveSession } from "./resolve";
import { sessionCookieNames } from "./session-cookie";

/**
 * The signed-in user of a page render, by the same rules as the API (lib/auth/resolve.ts): an
 * unknown, expired or banned session is nobody. Cached per render, so the layout and the page
 * share one lookup.
 */
export const currentViewer = cache(async (): Promise<Principal | null> => {
  const jar = await cookies();
  const token = sessionCookieNames()
    .map((name) => jar.get(name)?.value)
    .find(Boolean);
  if (!token) return null;
  try {
    return await resolveSession(await getDb(), token);
  } catch (err) {
    if (isDomainError(err)) return null;
    throw err;
  }
});

/** For server actions: the viewer's context, or null when nobody is signed in. */
export async function viewerContext(): Promise<ServiceContext | null> {
  const principal = await currentViewer();
  return principal ? { requestId: crypto.randomUUID(), db: await getDb(), principal } : null;
}

/** For dashboard pages: the viewer's context, or a redirect to sign-in. */
export async function requireViewer(): Promise<ServiceContext> {
  const principal = await currentViewer();
  if (!principal) redirect("/signin?callbackUrl=/dashboard");
  return { requestId: crypto.randomUUID(), db: await getDb(), principal };
}

/** For admin pages; the admin layout already refuses others, this keeps each page safe alone. */
export async function requireAdmin(): Promise<ServiceContext> {
  const ctx = await requireViewer();
  if (ctx.principal.role !== "admin") redirect("/dashboard");
  return ctx;
}
