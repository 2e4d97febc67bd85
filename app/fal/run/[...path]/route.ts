import { prefixRoutes } from "@/lib/fal-protocol/routes";

// POST /fal/run/{model} – fal.run's run (FAL_RUN_HOST=<gateway>/fal/run); POST /fal/run/{model}/stream – its stream.
// Other methods: 405 in fal's error shape (docs/fal.md).
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = prefixRoutes("run");
