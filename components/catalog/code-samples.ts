import { curlExamples } from "@/lib/catalog/curl-examples";

/** A JSON value as a Python literal (True/False/None), indented like json.dumps(indent=4). */
export function pythonLiteral(value: unknown, indent = 0): string {
  const pad = " ".repeat(indent + 4);
  const end = " ".repeat(indent);
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "None";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${pad}${pythonLiteral(v, indent + 4)}`).join(",\n")},\n${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${pythonLiteral(v, indent + 4)}`).join(",\n")},\n${end}}`;
}

/** A JSON object as a JavaScript object literal, nested by `indent` spaces. */
const jsLiteral = (value: unknown, indent: number) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${" ".repeat(indent)}`);

/**
 * The model page's code: curl against `/run` and the agents' `/api/v1/generate`, the stock
 * `@fal-ai/client` through the gateway's fal proxy (docs/fal.md: `when: "always"` so a server
 * uses it too; the gateway key is the client's credentials), and Python's requests against `/run`
 * (sync, with the 5-minute wait as its timeout) — each with the same input.
 */
export function codeSamples(baseUrl: string, modelId: string, input: Record<string, unknown>) {
  const base = baseUrl.replace(/\/+$/, "");
  const { run, generate } = curlExamples(base, modelId, input);
  const javascript = [
    `import { fal } from "@fal-ai/client";`,
    ``,
    `// Your gateway key (gw_live_…) is the client's credentials; every call goes to the gateway.`,
    `fal.config({`,
    `  credentials: process.env.GATEWAY_KEY,`,
    `  proxyUrl: { url: "${base}/api/fal/proxy", when: "always" },`,
    `});`,
    ``,
    `const result = await fal.subscribe(${JSON.stringify(modelId)}, {`,
    `  input: ${jsLiteral(input, 2)},`,
    `  logs: true,`,
    `  onQueueUpdate: (update) => console.log(update.status),`,
    `});`,
    `console.log(result.requestId, result.data);`,
  ].join("\n");
  const python = [
    `import os`,
    `import requests`,
    ``,
    `response = requests.post(`,
    `    "${base}/run/${modelId}",`,
    `    headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},`,
    `    json=${pythonLiteral(input, 4)},`,
    `    timeout=330,  # a sync run waits up to 5 minutes; longer ones go through /queue`,
    `)`,
    `response.raise_for_status()`,
    `result = response.json()`,
    `print(result["request_id"], result)`,
  ].join("\n");
  return { run, generate, javascript, python };
}
