import { randomUUID } from "node:crypto";
import { getDb, type Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";

/**
 * What every domain verb acting for a caller takes first: the request's id (logs, error answers),
 * the database and who is calling. The route wrappers, the pages (`requireViewer`), MCP tools and
 * integrations build one; a verb never sees the HTTP request, so any surface can call it.
 */
export type ServiceContext = { requestId: string; db: Db; principal: Principal };

/** The same for routes open to anonymous callers (`auth: "none" | "optional"`). */
export type OptionalServiceContext = Omit<ServiceContext, "principal"> & { principal: Principal | null };

/** What a public page or server action reads with: the same database, nobody signed in. */
export async function publicContext(): Promise<OptionalServiceContext> {
  return { requestId: randomUUID(), db: await getDb(), principal: null };
}
