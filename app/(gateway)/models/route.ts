import { modelOperations } from "@/lib/http/contracts/models";
import { listModels } from "@/lib/catalog/list";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /models – search the public catalog (category/lab IN, tag AND, search, sort, paging)
export const GET = withGateway(modelOperations.listModels, async ({ ctx, query }) => json(await listModels(ctx.db, query)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
