import { listModelsQuery } from "@/lib/api/contracts/models";
import { listModels } from "@/lib/catalog/list";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /models – search the public catalog (category/lab IN, tag AND, search, sort, paging)
export const GET = withGateway({ auth: "optional", query: listModelsQuery }, async ({ ctx, query }) =>
  json(await listModels(ctx.db, query)),
);
