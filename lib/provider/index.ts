/**
 * The provider layer's public surface, for the generation engine. See docs/providers.md
 * and ./types.ts for the contract.
 */
export type * from "./types";
export { isEndState, PROVIDER_END_STATES, providerNames } from "./types";
export {
  CircuitOpenError,
  describeDetail,
  CANCELLED_ERROR_TYPE,
  isCancelledAtProvider,
  isCircuitOpen,
  isModelFailed,
  isProviderError,
  isProviderRejected,
  isProviderUnavailable,
  ModelFailedError,
  ProviderError,
  ProviderRejectedError,
  ProviderUnavailableError,
  providerErrorToDomainError,
  type ModelErrorDetail,
  type ProviderOperation,
} from "./errors";
export { breakerFor, CircuitBreaker, type CircuitSnapshot, type CircuitState } from "./circuit-breaker";
export { configuredProviderName, fetchProviderMedia, providerByName, startProviders } from "./registry";
export { coolDown, cooldownLeftMs, cooldownSnapshots, resetCooldowns, type CooldownSnapshot } from "./cooldown";
export { verifyProviderWebhook, webhookScheme, type RawWebhook } from "./webhook-verify";
