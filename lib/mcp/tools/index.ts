import type { McpTool } from "../tool";
import { cancelRequest } from "./cancel-request";
import { estimateCost } from "./estimate-cost";
import { generate } from "./generate";
import { getBalance } from "./get-balance";
import { getModelSchema } from "./get-model-schema";
import { getRequest } from "./get-request";
import { listModels } from "./list-models";
import { uploadFile } from "./upload-file";

/** The MCP server's tools, in the order a model meets them in a task. */
export const tools = [
  listModels,
  getModelSchema,
  estimateCost,
  generate,
  getRequest,
  cancelRequest,
  uploadFile,
  getBalance,
] as unknown as McpTool[];
