import type { Operation } from "./operation";
import { systemOperations } from "./system";
import { inngestOperations } from "./inngest";

/** Every documented operation; each resource's contract file adds its list here. */
export const operations: Operation[] = [...systemOperations, ...inngestOperations];
