import { z } from "zod";
import { defineOperations } from "./operation";

export const simMediaParams = z.object({
  mediaPath: z
    .string()
    .meta({ description: "The rest of the link as the result gave it (contains slashes), e.g. `image/0011…/1024x1024/0.jpg`" }),
});

export const simMediaQuery = z.object({
  exp: z.string().meta({ description: "Expiry of the link (unix seconds)" }),
  sig: z.string().meta({ description: "Signature of the link" }),
});

export const simOperations = defineOperations([
  {
    method: "get",
    path: "/sim/{mediaPath}",
    operationId: "getSimulatedMedia",
    summary: "Media produced by the local simulator provider",
    description:
      "Provider links returned with `passthrough=1` when a generation ran on the built-in simulator (the embedded default and sandbox keys): " +
      "image/png, image/jpeg, audio/wav, video/mp4 or model/gltf-binary. Signed, valid for about a day, like a provider CDN link. " +
      "Single byte ranges are honoured (206). A tampered or expired link is 404.",
    tags: ["Generation"],
    surface: "gateway",
    auth: "none",
    internal: true,
    params: simMediaParams,
    query: simMediaQuery,
    responses: {
      200: { description: "The media bytes", contentType: "application/octet-stream" },
      206: { description: "The requested byte range", contentType: "application/octet-stream" },
      416: { description: "The range lies beyond the end of the file" },
    },
    errors: ["not_found"],
  },
]);
