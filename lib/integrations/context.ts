import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";

/** What an integration operation runs with: the request's id, database and caller (withGateway's ctx). */
export type IntegrationContext = { requestId: string; db: Db; principal: Principal };
