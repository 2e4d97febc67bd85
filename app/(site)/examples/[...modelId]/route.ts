import { publicContext } from "@/lib/auth/context";
import { cachedModelRow } from "@/lib/catalog/get";
import { exampleKindOf, renderedExample, renderedExampleAudio } from "@/lib/catalog/example-output";
import { notFound } from "@/lib/core/errors";
import { modelOperations } from "@/lib/http/contracts/models";
import { withGateway } from "@/lib/http/handler";
import { parseModelPath } from "@/lib/http/model-path";
import { otherMethodsOf } from "@/lib/http/unknown-route";

/**
 * A model's example output as the app renders it with the local simulator (lib/catalog/
 * example-output.ts): the picture (JPEG), or with `?as=audio` an audio model's sound (WAV). The
 * bytes depend only on the model and its category, so browsers may keep them for a day.
 */
async function serve(req: Request, segments: string | string[] | undefined, url: URL): Promise<Response> {
  const { modelId } = parseModelPath(segments, []);
  const model = await cachedModelRow((await publicContext()).db, modelId);
  if (!model?.visible) throw notFound("Model");
  const audio = url.searchParams.get("as") === "audio";
  if (audio && exampleKindOf(model.modelId, model.category) !== "audio") throw notFound("Example audio");
  const bytes = audio ? renderedExampleAudio(model.modelId, model.category) : await renderedExample(model.modelId, model.category);
  const headers = {
    "Content-Type": audio ? "audio/wav" : "image/jpeg",
    "Content-Length": String(bytes.byteLength),
    "Cache-Control": "public, max-age=86400",
    ETag: `"${audio ? "a" : "i"}-${Buffer.from(`${model.modelId}\0${model.category}`).toString("base64url").slice(0, 80)}"`,
  };
  if (req.headers.get("if-none-match") === headers.ETag) return new Response(null, { status: 304, headers });
  return new Response(req.method === "HEAD" ? null : (bytes as Uint8Array<ArrayBuffer>), { headers });
}

// GET /examples/{modelId} – the model's example output, rendered by the app (`?as=audio`: its sound)
export const GET = withGateway(modelOperations.getModelExample, ({ req, params, url }) => serve(req, params.modelId, url), {
  raw: ["params"],
});
// HEAD /examples/{modelId} – headers only
export const HEAD = GET;

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET, HEAD });
