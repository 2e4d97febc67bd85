import { describe, expect, test } from "vitest";
import { routeTemplate, UNMATCHED_ROUTE } from "./route-template";

describe("success", () => {
  test.each([
    ["/models", {}, "/models"],
    ["/me/keys/key_123", { id: "key_123" }, "/me/keys/{id}"],
    // A value equal to one of the route's literals is still found where the route puts it.
    ["/me/keys/keys", { id: "keys" }, "/me/keys/{id}"],
    ["/admin/users/usr_1/keys/key_2", { id: "usr_1", keyId: "key_2" }, "/admin/users/{id}/keys/{keyId}"],
    ["/admin/users/same/keys/same", { id: "same", keyId: "same" }, "/admin/users/{id}/keys/{keyId}"],
    ["/admin/users/usr_1/credits/grant", { id: "usr_1" }, "/admin/users/{id}/credits/grant"],
    ["/api/v1/requests/5b0e/stream", { requestId: "5b0e" }, "/api/v1/requests/{requestId}/stream"],
    ["/me/keys/a%20b", { id: "a b" }, "/me/keys/{id}"],
    ["/run/fal-ai/flux/dev", { path: ["fal-ai", "flux", "dev"] }, "/run/{modelId}"],
    ["/models/fal-ai/flux/dev", { path: ["fal-ai", "flux", "dev"] }, "/models/{modelId}"],
    ["/models/fal-ai/flux/dev/estimate", { path: ["fal-ai", "flux", "dev", "estimate"] }, "/models/{modelId}/estimate"],
    ["/api/v1/models/fal-ai/flux/dev/schema", { path: ["fal-ai", "flux", "dev", "schema"] }, "/api/v1/models/{modelId}/schema"],
    ["/queue/fal-ai/flux/dev", { path: ["fal-ai", "flux", "dev"] }, "/queue/{modelId}"],
    [
      "/queue/fal-ai/flux/dev/requests/0b5c2a4e-8f3d-4d2a-9a51-3c1f0e6b7d20/status/stream",
      { path: ["fal-ai", "flux", "dev", "requests", "0b5c2a4e-8f3d-4d2a-9a51-3c1f0e6b7d20", "status", "stream"] },
      "/queue/{modelId}/requests/{requestId}/status/stream",
    ],
    ["/me/no/such/thing", { unknown: ["no", "such", "thing"] }, "/me/{unknown}"],
    ["/integrations/covers", { path: ["covers"] }, "/integrations/{path}"],
  ])("%s is %s", (pathname, params, template) => {
    expect(routeTemplate(pathname, params)).toBe(template);
  });
});

describe("validation", () => {
  test.each([
    ["/me/keys/key_123", { id: "other" }],
    ["/run/fal-ai/flux/dev", { path: ["x", "y"] }],
    ["/run", { path: ["a", "b", "c"] }],
  ])("a path that does not fit its params (%s) is never reported raw", (pathname, params) => {
    expect(routeTemplate(pathname, params)).toBe(UNMATCHED_ROUTE);
  });
});
