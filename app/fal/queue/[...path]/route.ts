import { prefixRoutes } from "@/lib/fal-protocol/routes";

// fal's queue API (FAL_QUEUE_RUN_HOST=<gateway>/fal/queue): POST /fal/queue/{model} submit;
// GET …/requests/{id}/status[/stream] and …/requests/{id}; PUT …/requests/{id}/cancel (docs/fal.md).
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = prefixRoutes("queue");
