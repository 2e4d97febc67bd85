import { CopyButton } from "./copy-button";

/** Single-quoted for a POSIX shell: ' becomes '\'' . */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlExamples(baseUrl: string, modelId: string, input: Record<string, unknown>) {
  const body = JSON.stringify(input, null, 2);
  const run = [
    `curl -X POST "${baseUrl}/run/${modelId}" \\`,
    `  -H "Authorization: Bearer $API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d ${shellQuote(body)}`,
  ].join("\n");
  const generate = [
    `curl -X POST "${baseUrl}/api/v1/generate" \\`,
    `  -H "Authorization: Bearer $API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d ${shellQuote(JSON.stringify({ model: modelId, input, sync: true }, null, 2))}`,
  ].join("\n");
  return { run, generate };
}

export function CurlExamples({ baseUrl, modelId, input }: { baseUrl: string; modelId: string; input: Record<string, unknown> }) {
  const { run, generate } = curlExamples(baseUrl, modelId, input);
  return (
    <div className="space-y-4">
      {[
        ["Gateway: POST /run", run, "curl-run"],
        ["Agents: POST /api/v1/generate", generate, "curl-generate"],
      ].map(([title, code, id]) => (
        <figure key={id} className="overflow-hidden rounded-lg bg-slate-900">
          <figcaption className="flex items-center justify-between border-b border-slate-700 px-4 py-2 text-xs text-slate-300">
            <span>{title}</span>
            <CopyButton text={code!} />
          </figcaption>
          <pre className="overflow-x-auto p-4 text-xs leading-relaxed text-slate-100" data-testid={id}>
            {code}
          </pre>
        </figure>
      ))}
    </div>
  );
}
