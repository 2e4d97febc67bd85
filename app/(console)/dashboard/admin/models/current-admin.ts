import { cookies } from "next/headers";
import { getDb } from "@/db/client";
import { resolvePrincipal } from "@/lib/auth/resolve";

/**
 * The signed-in admin for a dashboard page, or null. Reads the session cookie through the same
 * resolver the API uses. The dashboard's own session gate arrives with the identity issue; the
 * admin JSON API this page calls enforces the admin rule on every request regardless.
 */
export async function currentAdmin() {
  const cookie = (await cookies()).toString();
  const principal = await resolvePrincipal(await getDb(), new Request("http://internal/", { headers: { cookie } })).catch(() => null);
  return principal?.role === "admin" && principal.source === "session" ? principal : null;
}
