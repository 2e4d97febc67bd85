import Link from "next/link";
import { CopyButton } from "@/components/catalog/copy-button";
import { claudeCodeCommand, mcpClientConfig, mcpServerUrl } from "@/lib/mcp/client-config";

/** How to connect an MCP client: the server URL and the key header, ready to copy. */
export function McpConnect({ appUrl }: { appUrl: string }) {
  const snippets: [title: string, code: string, testId: string][] = [
    ["mcp.json (Claude Code, Cursor, …)", mcpClientConfig(appUrl), "mcp-config"],
    ["Claude Code", claudeCodeCommand(appUrl), "mcp-claude-code"],
  ];
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        Server URL <code className="rounded bg-slate-100 px-1 py-0.5 text-slate-800">{mcpServerUrl(appUrl)}</code>, authenticated with an API key from{" "}
        <Link className="text-brand-700 hover:underline" href="/dashboard/keys">
          your keys
        </Link>
        . Agents get list_models, get_model_schema, estimate_cost, generate, get_request, cancel_request, upload_file and get_balance, billed like any
        other call. Language models can also read{" "}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a text file from a route handler, not a page */}
        <a className="text-brand-700 hover:underline" href="/llms.txt">
          /llms.txt
        </a>
        .
      </p>
      {snippets.map(([title, code, testId]) => (
        <figure key={testId} className="max-w-2xl overflow-hidden rounded-lg bg-slate-900">
          <figcaption className="flex items-center justify-between border-b border-slate-700 px-4 py-2 text-xs text-slate-300">
            <span>{title}</span>
            <CopyButton text={code} />
          </figcaption>
          <pre className="overflow-x-auto p-4 text-sm text-slate-100" data-testid={testId}>
            {code}
          </pre>
        </figure>
      ))}
    </div>
  );
}
