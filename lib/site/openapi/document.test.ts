import { validate } from "@readme/openapi-parser";
import { createWorkspaceStore } from "@scalar/workspace-store/client";
import { describe, expect, test } from "vitest";
import { GET as getOpenApi } from "@/app/(gateway)/openapi.json/route";
import { call } from "@/test/http";
import { z } from "zod";
import { operations } from "@/lib/http/contracts";
import { buildOpenApiDocument } from "./document";

type Json = Record<string, any>;
/** Every rule of @readme/openapi-parser raised to an error (a warning would not fail). */
const STRICT_RULES = [
  "array-without-items",
  "duplicate-non-request-body-parameters",
  "duplicate-operation-id",
  "invalid-security-scheme-properties",
  "non-optional-path-parameters",
  "path-parameters-not-in-parameters",
  "path-parameters-not-in-path",
];
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const served = async (): Promise<Json> => {
  const res = await call(getOpenApi, "/openapi.json");
  expect(res.status).toBe(200);
  return res.body;
};
const operationsOf = (doc: Json) =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  );

/** What Scalar's /docs logs as "document validation errors" when it loads the document. */
async function scalarValidationErrors(doc: Json): Promise<{ path: string; message: string }[]> {
  const warned: unknown[][] = [];
  const { warn, info } = console;
  console.warn = (...args: unknown[]) => void warned.push(args);
  console.info = () => {}; // Scalar's timing lines
  try {
    await createWorkspaceStore({}).addDocument({ name: "default", document: structuredClone(doc) });
  } finally {
    Object.assign(console, { warn, info });
  }
  return warned.flatMap((args) =>
    args
      .filter(Array.isArray)
      .flatMap((list) => (list as { path: string; message: string }[]).map(({ path, message }) => ({ path, message }))),
  );
}

/** Every schema object below `node` that has neither a `type` nor a `$ref`, by JSON pointer. */
function untypedSchemas(doc: Json): string[] {
  const found: string[] = [];
  const schema = (s: unknown, at: string) => {
    if (typeof s !== "object" || s === null || Array.isArray(s)) return;
    const o = s as Json;
    if (o.type === undefined && o.$ref === undefined) found.push(at);
    for (const key of ["properties", "patternProperties", "$defs"])
      for (const [k, v] of Object.entries((o[key] ?? {}) as Json)) schema(v, `${at}/${key}/${k}`);
    for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"])
      ((o[key] ?? []) as unknown[]).forEach((v, i) => schema(v, `${at}/${key}/${i}`));
    for (const key of ["items", "not", "additionalProperties", "propertyNames", "contentSchema"]) schema(o[key], `${at}/${key}`);
  };
  for (const [name, s] of Object.entries((doc.components?.schemas ?? {}) as Json)) schema(s, `#/components/schemas/${name}`);
  for (const { path, method, op } of operationsOf(doc)) {
    const at = `#/paths/${path}/${method}`;
    for (const p of (op.parameters ?? []) as Json[]) schema(p.schema, `${at}/parameters/${p.name}`);
    for (const [type, m] of Object.entries((op.requestBody?.content ?? {}) as Json)) schema(m.schema, `${at}/requestBody/${type}`);
    for (const [status, r] of Object.entries((op.responses ?? {}) as Json)) {
      for (const [type, m] of Object.entries((r.content ?? {}) as Json)) schema(m.schema, `${at}/responses/${status}/${type}`);
    }
  }
  return found;
}

describe("the public document (/openapi.json, /docs)", () => {
  test("is valid OpenAPI 3.1 for a strict validator and for Scalar, every schema typed", async () => {
    const doc = await served();
    expect(doc.openapi).toBe("3.1.0");
    const rules = Object.fromEntries(STRICT_RULES.map((rule) => [rule, "error" as const]));
    const strict = await validate(structuredClone(doc) as Parameters<typeof validate>[0], { validate: { rules: { openapi: rules } } });
    expect(strict.valid ? [] : strict.errors).toEqual([]);
    expect(strict.warnings).toEqual([]);
    expect(await scalarValidationErrors(doc)).toEqual([]);
    expect(untypedSchemas(doc)).toEqual([]);
  });

  test("the checks see what Scalar complained about: the untransformed document fails them", async () => {
    const raw = buildOpenApiDocument() as Json;
    expect(await scalarValidationErrors(raw)).toContainEqual({ path: "/components/schemas/ApiKey", message: "Expected union value" });
    expect(untypedSchemas(raw)).toContain("#/components/schemas/ApiKey/properties/expiresAt");
  });

  test("the public catalog reads need no key: anonymous access is one of the options", async () => {
    const doc = await served();
    for (const [path, method] of [
      ["/models", "get"],
      ["/models/{modelId}", "get"],
    ] as const) {
      expect(doc.paths[path][method].security).toEqual([{}, { bearerAuth: [] }, { sessionCookie: [] }]);
    }
    expect(doc.paths["/models/{modelId}/estimate"].post.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(doc.paths["/health"].get.security).toEqual([]);
  });

  test("internal operations are left out; the full contract still lists them", async () => {
    const doc = await served();
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => p.startsWith("/api/inngest") || p.startsWith("/sim"))).toEqual([]);
    expect(operationsOf(doc).flatMap(({ op }) => op.tags ?? [])).not.toContain("Internal");
    expect(Object.keys(buildOpenApiDocument().paths ?? {})).toEqual(expect.arrayContaining(["/api/inngest", "/sim/{mediaPath}"]));
  });

  test("every operation with a JSON body documents 415 unsupported_media_type", async () => {
    const doc = await served();
    const json = operationsOf(doc).filter(({ op }) => op.requestBody?.content?.["application/json"]);
    expect(json.length).toBeGreaterThan(20);
    expect(
      json
        .filter(({ op }) => !op.responses["415"]?.description?.includes("unsupported_media_type"))
        .map(({ path, method }) => `${method} ${path}`),
    ).toEqual([]);
  });

  test("no request body makes a client send a field that has a default (openapi-typescript requires a component's)", async () => {
    const doc = await served();
    const forced = operationsOf(doc).flatMap(({ path, method, op }) =>
      Object.values((op.requestBody?.content ?? {}) as Json).flatMap((m: Json) => {
        const name = typeof m.schema?.$ref === "string" ? m.schema.$ref.split("/").pop() : null;
        const properties = (name ? doc.components.schemas[name]?.properties : null) ?? {};
        return Object.entries(properties as Json)
          .filter(([, p]) => (p as Json).default !== undefined)
          .map(([field]) => `${method} ${path}: ${name}.${field}`);
      }),
    );
    expect(forced).toEqual([]);
    expect(doc.paths["/me/keys"].post.requestBody.content["application/json"].schema.properties.mode.default).toBe("live");
    expect(doc.paths["/api/v1/generate"].post.requestBody.content["application/json"].schema.required).toEqual(["model", "input"]);
  });

  test("a multipart upload's file is binary; a path's modelId says its slashes may come percent-encoded", async () => {
    const doc = await served();
    for (const path of ["/me/uploads", "/api/v1/upload"]) {
      const { $ref } = doc.paths[path].post.requestBody.content["multipart/form-data"].schema;
      expect(doc.components.schemas[$ref.split("/").pop()].properties.file).toMatchObject({ type: "string", format: "binary" });
    }
    const modelId = doc.paths["/run/{modelId}"].post.parameters.find((p: Json) => p.name === "modelId");
    expect(modelId.description).toContain("fal-ai%2Fflux%2Fdev");
    expect(doc.info.description).toContain("percent-encodes");
  });

  test("the Error envelope documents the fields real errors carry, and admits others", async () => {
    const { components } = await served();
    const error = components.schemas.Error;
    expect(Object.keys(error.properties)).toEqual(
      expect.arrayContaining(["success", "error", "message", "issues", "requestId", "request_id", "status", "limitBytes"]),
    );
    expect(error.properties.limitBytes.type).toBe("integer");
    expect(error.additionalProperties).toBe(true);
    expect(error.required).toEqual(["success", "error", "message"]);
  });

  test("sections start with Generation and Models; administration comes last", async () => {
    const { tags } = await served();
    const names = tags.map((t: Json) => t.name);
    expect(names.slice(0, 2)).toEqual(["Generation", "Models"]);
    expect(names.slice(-3)).toEqual(["Admin", "Admin: users", "Admin: money"]);
    // Every tag an operation carries is listed, once.
    const used = new Set(operationsOf(await served()).flatMap(({ op }) => op.tags as string[]));
    expect(new Set(names)).toEqual(used);
    expect(names.length).toBe(used.size);
  });

  test("examples are real: each one is what its own contract accepts, and no integer bound is made up", async () => {
    const doc = await served();
    const text = JSON.stringify(doc);
    expect(text).not.toContain(String(Number.MIN_SAFE_INTEGER));
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    // Bounds of our own survive.
    expect(doc.components.schemas.SkillBalance.properties.tier).toMatchObject({ minimum: 1, maximum: 4 });

    const withExamples = Object.entries(doc.components.schemas as Json).filter(([, s]) => Array.isArray((s as Json).examples));
    expect(withExamples.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "ModelListItem",
        "ModelEstimate",
        "GenerationInput",
        "GenerationGatewayResult",
        "QueueSubmitted",
        "ApiKey",
        "SkillBalance",
      ]),
    );
    // The zod schema each component came from (its registered id) parses its own examples.
    const byId = new Map<string, z.ZodType>();
    for (const op of operations)
      for (const candidate of [op.body, ...Object.values(op.responses).map((r) => r.schema)])
        if (candidate) collect(candidate as z.ZodType, byId);
    for (const [name, schema] of withExamples) {
      const zod = byId.get(name);
      expect(zod, name).toBeDefined();
      for (const example of (schema as Json).examples) expect([name, zod!.safeParse(example).success]).toEqual([name, true]);
    }
    expect(doc.components.schemas.SkillBalance.examples[0].rate_limit).toBeGreaterThan(0);
  });
});

/** Registered schemas reachable from `schema` (an object's fields, arrays' items), by their meta id. */
function collect(schema: z.ZodType, into: Map<string, z.ZodType>) {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) {
    if (into.has(id)) return;
    into.set(id, schema);
  }
  const def = (schema as unknown as { _zod: { def: Json } })._zod.def;
  if (def.shape) for (const field of Object.values(def.shape as Json)) collect(field as z.ZodType, into);
  if (def.element) collect(def.element as z.ZodType, into);
  if (def.innerType) collect(def.innerType as z.ZodType, into);
  if (def.in) collect(def.in as z.ZodType, into);
  if (def.out) collect(def.out as z.ZodType, into);
  for (const option of (def.options as z.ZodType[] | undefined) ?? []) collect(option, into);
}
