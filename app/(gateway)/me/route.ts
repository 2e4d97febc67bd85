import { meOperations } from "@/lib/http/contracts/me";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { getProfile, updateProfile } from "@/lib/account/profile";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me – the current user and how this request was authenticated
export const GET = withGateway(meOperations.getMe, async ({ ctx }) =>
  json({
    user: await getProfile(ctx),
    auth: { source: ctx.principal.source, apiKeyId: ctx.principal.apiKeyId },
  }),
);

// PATCH /me – update name, avatar or the low-balance e-mail preference
export const PATCH = withGateway(meOperations.updateMe, async ({ ctx, body }) => json({ user: await updateProfile(ctx, body) }));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, DELETE, OPTIONS } = otherMethodsOf({ GET, PATCH });
