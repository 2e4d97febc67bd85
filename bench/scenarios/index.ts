import { catalogScenario } from "./catalog";
import { chaosScenario } from "./chaos";
import { fieldScenario } from "./field";
import { filesScenario } from "./files";
import { gatewayScenario } from "./gateway";
import { identityScenario } from "./identity";
import { loadScenario } from "./load";
import type { Scenario } from "./types";

/** Every scenario `npm run bench` runs; each issue that adds a hot path adds one here. */
export const scenarios: Scenario[] = [
  identityScenario,
  catalogScenario,
  filesScenario,
  gatewayScenario,
  fieldScenario,
  chaosScenario,
  loadScenario,
];
