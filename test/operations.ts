import type { AuthMode } from "@/lib/auth/resolve";
import type { Operation } from "@/lib/http/contracts/operation";

/** An operation for a test route: the wrapper under test takes auth from it, as from any contract. */
export function testOperation<const A extends AuthMode, const S extends Operation["surface"] = "gateway">(
  auth: A,
  surface: S = "gateway" as S,
): Operation & { auth: A } {
  return {
    method: "get",
    path: "/test",
    operationId: `test-${surface}-${auth}`,
    summary: "a test route",
    tags: ["test"],
    surface,
    auth,
    responses: { 200: { description: "OK" } },
  };
}
