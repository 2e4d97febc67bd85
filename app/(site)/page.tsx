import { connection } from "next/server";
import { McpConnect } from "@/components/agents/mcp-connect";
import { ButtonLink } from "@/components/ui/button";
import { env } from "@/lib/env";

const features = [
  {
    title: "One API, every modality",
    body: "Text-to-image, video, speech, music, embeddings and 3D on catalogued models, each with a JSON Schema for its input.",
  },
  {
    title: "Sync or queued",
    body: "Get the result in one request, or submit to the queue and poll, stream progress over SSE, or receive a signed webhook.",
  },
  {
    title: "Exact, prepaid billing",
    body: "Credits to a ten-thousandth of a ruble, a ledger row for every move, per-key monthly caps and automatic refunds on failure.",
  },
  {
    title: "Built for agents",
    body: "A compact skill surface under /api/v1 and an MCP server at /mcp, with stable error codes, tiered rate limits and model schemas an agent can read.",
  },
];

export default async function HomePage() {
  // The MCP snippet carries this deployment's URL, known at run time (APP_URL), not at build time.
  await connection();
  return (
    <div>
      <section className="bg-gradient-to-b from-white to-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-20">
          <p className="text-sm font-medium uppercase tracking-wider text-brand-600">Generation Gateway</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            Generate images, video and audio through one API.
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-slate-600">
            Pick a model from the catalog, call it synchronously or through the queue, and pay only for what you generate.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink href="/catalog">Browse models</ButtonLink>
            <ButtonLink href="/docs" variant="secondary">
              API reference
            </ButtonLink>
          </div>
          <pre className="mt-10 max-w-2xl overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">
            {`curl -X POST "$BASE_URL/run/fal-ai/flux/dev" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"prompt": "a lighthouse at dawn, oil painting"}'`}
          </pre>
        </div>
      </section>
      <section className="mx-auto grid max-w-6xl gap-6 px-4 py-12 sm:grid-cols-2">
        {features.map((f) => (
          <div key={f.title} className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <h2 className="font-semibold text-slate-900">{f.title}</h2>
            <p className="mt-2 text-sm text-slate-600">{f.body}</p>
          </div>
        ))}
      </section>
      <section className="mx-auto max-w-6xl px-4 pb-16" aria-labelledby="connect-agent">
        <h2 id="connect-agent" className="text-2xl font-bold tracking-tight text-slate-900">
          Connect an AI agent over MCP
        </h2>
        <div className="mt-4">
          <McpConnect appUrl={env().APP_URL} />
        </div>
      </section>
    </div>
  );
}
