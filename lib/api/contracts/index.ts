import type { Operation } from "./operation";
import { assetOperations } from "./assets";
import { systemOperations } from "./system";
import { uploadOperations } from "./uploads";

/** Every documented operation; each resource's contract file adds its list here. */
export const operations: Operation[] = [
  ...systemOperations,
  ...uploadOperations,
  ...assetOperations,
];
