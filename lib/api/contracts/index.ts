import type { Operation } from "./operation";
import { assetOperations } from "./assets";
import { simOperations } from "./sim";
import { systemOperations } from "./system";
import { uploadOperations } from "./uploads";

/** Every documented operation; each resource's contract file adds its list here (one per line). */
export const operations: Operation[] = [
  ...systemOperations,
  ...uploadOperations,
  ...assetOperations,
  ...simOperations,
];
