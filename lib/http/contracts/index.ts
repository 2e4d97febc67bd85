import type { Operation } from "./operation";
import { adminModelOperations } from "./admin-models";
import { adminMoneyOperations } from "./admin-money";
import { adminUserOperations } from "./admin-users";
import { agentOperations } from "./agents";
import { assetOperations } from "./assets";
import { billingOperations } from "./billing";
import { falOperations } from "./fal";
import { generationOperations } from "./generation";
import { providerWebhookOperations } from "./provider-webhook";
import { skillGenerationOperations } from "./skill-generation";
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

/** Every operation; each resource's contract file adds its record here (one per line). */
export const operations: Operation[] = [
  ...Object.values(systemOperations),
  ...Object.values(meOperations),
  ...Object.values(keyOperations),
  ...Object.values(adminUserOperations),
  ...Object.values(modelOperations),
  ...Object.values(skillModelOperations),
  ...Object.values(adminModelOperations),
  ...Object.values(uploadOperations),
  ...Object.values(assetOperations),
  ...Object.values(simOperations),
  ...Object.values(inngestOperations),
  ...Object.values(integrationOperations),
  ...Object.values(moneyOperations),
  ...Object.values(adminMoneyOperations),
  ...Object.values(billingOperations),
  ...Object.values(paymentMethodOperations),
  ...Object.values(generationOperations),
  ...Object.values(skillGenerationOperations),
  ...Object.values(providerWebhookOperations),
  ...Object.values(falOperations),
  ...Object.values(agentOperations),
];
