import { adminUserOperations } from "./admin-users";
import { keyOperations } from "./keys";
import { meOperations } from "./me";
import type { Operation } from "./operation";
import { systemOperations } from "./system";

/** Every documented operation; each resource's contract file adds its list here. */
export const operations: Operation[] = [...systemOperations, ...meOperations, ...keyOperations, ...adminUserOperations];
