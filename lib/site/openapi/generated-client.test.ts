import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { fundedActor } from "@/test/generation";
import * as media from "@/test/media";
import { serveApp } from "@/test/servers/app";

/**
 * A client generated from /openapi.json, used as an API user would: openapi-typescript turns the
 * served document into types (binary fields as Blob, its documented `transform`), a program calls
 * a dozen operations through openapi-fetch with no cast, `tsc --strict` must accept it, and it
 * runs against the app's routes on loopback (test/servers/app.ts).
 */

/** The program (no template literals, regexes or casts in it: it is written out as it is here). */
const PROGRAM = `import createClient from "openapi-fetch";
import type { paths } from "./schema";

const MODEL = "fal-ai/flux/schnell";
const SMALL = { prompt: "a lighthouse at dusk", image_size: { width: 256, height: 256 } };

export async function main(baseUrl: string, key: string, session: string, png: Uint8Array<ArrayBuffer>): Promise<string[]> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: "Bearer " + key } });
  const dashboard = createClient<paths>({ baseUrl, headers: { Cookie: "authjs.session-token=" + session } });
  const lines: string[] = [];
  const fail = (what: string, response: Response, error: unknown): never => {
    throw new Error(what + ": " + response.status + " " + JSON.stringify(error));
  };

  // The catalog; the model id's slashes percent-encoded (openapi-fetch's default), then as they are.
  const list = await api.GET("/models", { params: { query: { search: "flux", limit: 5 } } });
  if (!list.data) return fail("listModels", list.response, list.error);
  lines.push("listModels " + (list.data.items.length > 0));
  const card = await api.GET("/models/{modelId}", { params: { path: { modelId: MODEL } } });
  if (!card.data) return fail("getModel", card.response, card.error);
  const raw = await api.GET("/models/{modelId}", {
    params: { path: { modelId: MODEL } },
    pathSerializer: (pathname, params) => pathname.replace("{modelId}", String(params.modelId)),
  });
  if (!raw.data) return fail("getModel (raw slashes)", raw.response, raw.error);
  lines.push(["getModel", card.response.url.includes("%2F"), card.data.modelId, raw.response.url.includes("%2F"), raw.data.modelId].join(" "));

  const estimate = await api.POST("/models/{modelId}/estimate", { params: { path: { modelId: MODEL } }, body: SMALL });
  if (!estimate.data) return fail("estimateModel", estimate.response, estimate.error);
  lines.push(["estimateModel", estimate.data.currency, estimate.data.estimatedCostRub > 0].join(" "));

  // A sync run, then a queued one followed by its status and its result (not ready yet: 202).
  const run = await api.POST("/run/{modelId}", { params: { path: { modelId: MODEL } }, body: SMALL });
  if (!run.data) return fail("runModel", run.response, run.error);
  lines.push("runModel " + (run.data.images?.[0]?.url.includes("/files/") ?? false));
  const queued = await api.POST("/queue/{modelId}", { params: { path: { modelId: MODEL } }, body: SMALL });
  if (!queued.data) return fail("queueModel", queued.response, queued.error);
  const ids = { modelId: MODEL, requestId: queued.data.requestId };
  const status = await api.GET("/queue/{modelId}/requests/{requestId}/status", { params: { path: ids } });
  if (!status.data) return fail("getQueuedStatus", status.response, status.error);
  const result = await api.GET("/queue/{modelId}/requests/{requestId}", { params: { path: ids } });
  if (!result.data) return fail("getQueuedResult", result.response, result.error);
  lines.push(["queue", queued.data.status, status.data.status, result.response.status, result.data.request_id === ids.requestId].join(" "));

  const balance = await api.GET("/me/balance");
  if (!balance.data) return fail("getBalance", balance.response, balance.error);
  const skillBalance = await api.GET("/api/v1/balance");
  if (!skillBalance.data) return fail("skillGetBalance", skillBalance.response, skillBalance.error);
  lines.push(["balance", balance.data.balance > 0, skillBalance.data.balance_rub > 0].join(" "));

  // Keys: created with the dashboard's session (mode left to its default), listed and deleted with the key.
  const created = await dashboard.POST("/me/keys", { body: { name: "generated client" } });
  if (!created.data) return fail("createApiKey", created.response, created.error);
  const createdId = created.data.id;
  const keys = await api.GET("/me/keys");
  if (!keys.data) return fail("listApiKeys", keys.response, keys.error);
  const deleted = await api.DELETE("/me/keys/{id}", { params: { path: { id: createdId } } });
  if (deleted.error) return fail("deleteApiKey", deleted.response, deleted.error);
  lines.push(["keys", created.response.status, created.data.prefix, keys.data.keys.some((k) => k.id === createdId), deleted.response.status].join(" "));

  // The skill surface: generate answers 202 GenerationQueued (sync left to its default), told from
  // 200's GenerationResult by its body; the request, a missing one's typed error, the model's schema.
  const generated = await api.POST("/api/v1/generate", { body: { model: MODEL, input: SMALL } });
  if (!generated.data) return fail("skillGenerate", generated.response, generated.error);
  if (!("poll_url" in generated.data)) return fail("skillGenerate (queued)", generated.response, generated.data);
  const request = await api.GET("/api/v1/requests/{requestId}", { params: { path: { requestId: generated.data.id } } });
  if (!request.data) return fail("skillGetRequest", request.response, request.error);
  const missing = await api.GET("/api/v1/requests/{requestId}", { params: { path: { requestId: "no-such-request" } } });
  lines.push(["skill", generated.response.status, generated.data.status, request.data.id === generated.data.id, missing.error?.code].join(" "));
  const schema = await api.GET("/api/v1/models/{modelId}/schema", { params: { path: { modelId: MODEL }, query: { format: "full" } } });
  if (!schema.data) return fail("skillGetModelSchema", schema.response, schema.error);
  lines.push(["skillGetModelSchema", schema.data.required.join(","), "prompt" in schema.data.properties].join(" "));

  // A multipart upload (file is binary: a Blob in FormData), then the file back in its own type.
  const upload = await api.POST("/me/uploads", {
    body: { file: new Blob([png], { type: "image/png" }) },
    bodySerializer: (body) => {
      const form = new FormData();
      form.append("file", body.file, "input.png");
      return form;
    },
  });
  if (!upload.data) return fail("createUpload", upload.response, upload.error);
  const fileKey = new URL(upload.data.url).pathname.slice("/files/".length);
  const file = await api.GET("/files/{key}", { params: { path: { key: fileKey } }, parseAs: "blob" });
  if (!file.data) return fail("getFile", file.response, file.error);
  lines.push(["upload", upload.response.status, upload.data.contentType, file.data.type, file.data.size === png.byteLength].join(" "));
  return lines;
}
`;

const DIR = path.resolve("node_modules/.cache/generated-client", String(process.pid));
let app: Awaited<ReturnType<typeof serveApp>>;
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  // A queued job stays queued (the clock never moves): its result is the 202 answer.
  jobs = await startTestExecutor({ clock: new ManualClock() });
  app = await serveApp();
  mkdirSync(DIR, { recursive: true });
});
afterAll(async () => {
  await app.stop();
  jobs.uninstall();
  rmSync(DIR, { recursive: true, force: true });
});

/** `tsc --strict --noEmit` on the program and the generated types, through the compiler's API. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    // As this repository's own tsconfig (and Next.js's): the libraries' declarations are not ours to check.
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} ` : "";
    return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
  });
}

/** Every cast in a source: `as`, `<T>x`, `x!`, `satisfies` aside. */
function castsIn(source: string): string[] {
  const found: string[] = [];
  const file = ts.createSourceFile("program.ts", source, ts.ScriptTarget.ES2022, true);
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) found.push(node.getText(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("a client generated from /openapi.json", () => {
  test("typechecks under --strict with no cast, and its dozen operations answer as typed", async () => {
    const served = await fetch(`${app.url}/openapi.json`);
    expect(served.status).toBe(200);
    const types = await openapiTS(await served.json(), {
      // openapi-typescript's documented mapping of `format: binary` (multipart files) to Blob.
      transform: (schema) => (schema.format === "binary" ? ts.factory.createTypeReferenceNode("Blob") : undefined),
    });
    // A .ts file, not a .d.ts: checked like the program (skipLibCheck passes over declaration files).
    writeFileSync(path.join(DIR, "schema.ts"), astToString(types));
    const program = path.join(DIR, "program.ts");
    writeFileSync(program, PROGRAM);
    expect(castsIn(PROGRAM)).toEqual([]);
    expect(typeErrors(program)).toEqual([]);

    const runnable = path.join(DIR, "program.mjs");
    writeFileSync(
      runnable,
      ts.transpileModule(PROGRAM, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText,
    );
    const { main } = (await import(pathToFileURL(runnable).href)) as { main: (...args: unknown[]) => Promise<string[]> };
    const { key, session } = await fundedActor(100);
    const png = new Uint8Array(await media.image("png", 16));
    expect(await main(app.url, key, session, png)).toEqual([
      "listModels true",
      "getModel true fal-ai/flux/schnell false fal-ai/flux/schnell",
      "estimateModel RUB true",
      "runModel true",
      "queue queued queued 202 true",
      "balance true true",
      "keys 201 gw_live true 204",
      "skill 202 queued true NOT_FOUND",
      "skillGetModelSchema prompt true",
      "upload 201 image/png image/png true",
    ]);
  }, 120_000);
});
