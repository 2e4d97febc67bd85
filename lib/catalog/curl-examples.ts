/** Single-quoted for a POSIX shell: ' becomes '\'' . */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The curl calls of a model on each surface, as the catalog page and its llms.txt show them. */
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
