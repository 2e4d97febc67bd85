import type { Operation } from "./operation";
import { adminModelOperations } from "./admin-models";
import { modelOperations } from "./models";
import { skillModelOperations } from "./skill-models";
import { systemOperations } from "./system";

/** Every documented operation; each resource's contract file adds its list here. */
export const operations: Operation[] = [
  ...systemOperations,
  ...modelOperations,
  ...skillModelOperations,
  ...adminModelOperations,
];
