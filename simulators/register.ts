import { registerPaymentProvider } from "@/lib/billing/payments/registry";
import { parseFalWebhook } from "@/lib/provider/fal/webhook-payload";
import { registerProvider } from "@/lib/provider/registry";
import { isLocalPaymentSecret } from "./local-payments/secret";
import { LocalPaymentProvider } from "./local-payments/provider";
import { readMediaLink } from "./local-provider/media-url";
import { LocalProvider } from "./local-provider/provider";
import { localProviderSecret } from "./local-provider/secret";

/**
 * The simulators, registered with the product's registries (lib/ never imports them):
 *
 * - `local` generation provider: the default (PROVIDER=local) and always the sandbox keys'. Built
 *   and started with the server, since it resumes the webhooks it owed before a restart; its
 *   signed media links are read in-process without building it; its webhooks are Standard
 *   Webhooks signed with its secret.
 * - `local` payment provider: PAYMENT_PROVIDER=local, with its confirmation page at /pay/local/{id};
 *   its notifications carry its secret as a bearer token.
 *
 * Called once per process before anything is served: instrumentation.ts (the server), test/setup.ts
 * (every test file) and the bench's entry points that drive the simulator in-process.
 */
export function registerSimulators(): void {
  registerProvider("local", {
    create: () => new LocalProvider(),
    startWithServer: true,
    readMedia: (url) => readMediaLink(url),
    // The simulator sends fal's webhook body (Standard-Webhooks-signed with its secret).
    standardWebhooks: { secret: localProviderSecret, parse: (body) => parseFalWebhook("local", body) },
  });
  registerPaymentProvider("local", { create: () => new LocalPaymentProvider(), acceptsBearer: isLocalPaymentSecret });
}
