import type { Operation } from "./operation";
import { adminModelOperations } from "./admin-models";
import { adminMoneyOperations } from "./admin-money";
import { adminUserOperations } from "./admin-users";
import { agentOperations } from "./agents";
import { assetOperations } from "./assets";
import { billingOperations } from "./billing";
import { falOperations } from "./fal";
import { generationOperations } from "./generation";
import { inngestOperations } from "./inngest";
import { integrationOperations } from "./integrations";
import { keyOperations } from "./keys";
import { meOperations } from "./me";
import { moneyOperations } from "./money";
import { modelOperations } from "./models";
import { paymentMethodOperations } from "./payment-methods";
import { simOperations } from "./sim";
import { skillModelOperations } from "./skill-models";
import { systemOperations } from "./system";
import { uploadOperations } from "./uploads";

/** Every documented operation; each resource's contract file adds its list here (one per line). */
export const operations: Operation[] = [
  ...systemOperations,
  ...meOperations,
  ...keyOperations,
  ...adminUserOperations,
  ...modelOperations,
  ...skillModelOperations,
  ...adminModelOperations,
  ...uploadOperations,
  ...assetOperations,
  ...simOperations,
  ...inngestOperations,
  ...integrationOperations,
  ...moneyOperations,
  ...adminMoneyOperations,
  ...billingOperations,
  ...paymentMethodOperations,
  ...generationOperations,
  ...falOperations,
  ...agentOperations,
];
