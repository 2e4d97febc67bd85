import type { Operation } from "./operation";
import { simOperations } from "./sim";
import { systemOperations } from "./system";

/** Every documented operation; each resource's contract file adds its list here. */
export const operations: Operation[] = [...systemOperations, ...simOperations];
