import { env } from "@/lib/core/env";
import { REQUEST_ID_HEADER } from "./render";
import type { FalHost } from "./target";

export type FalVia = "proxy" | "prefix";
export type Located = { host: FalHost; segments: string[]; search: string };

const origin = () => env().APP_URL.replace(/\/$/, "");

/** Where a job's fal URLs point: fal's own queue host through the proxy (the client sends them back through it), else our prefix. */
export const queueBaseOf = (via: FalVia) => (via === "proxy" ? "https://queue.fal.run" : `${origin()}/fal/queue`);

export const idHeader = (id: string) => ({ [REQUEST_ID_HEADER]: id });
