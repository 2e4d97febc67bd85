import { useTranslations } from "next-intl";
import Link from "next/link";
import { CopyButton } from "@/components/catalog/copy-button";
import { claudeCodeCommand, mcpClientConfig, mcpServerUrl } from "@/lib/site/mcp-client";

/** How to connect an MCP client: the server URL and the key header, ready to copy. */
export function McpConnect({ appUrl }: { appUrl: string }) {
  const t = useTranslations("mcp");
  const snippets: [title: string, code: string, testId: string][] = [
    ["mcp.json (Claude Code, Cursor, …)", mcpClientConfig(appUrl), "mcp-config"],
    ["Claude Code", claudeCodeCommand(appUrl), "mcp-claude-code"],
  ];
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        {t.rich("intro", {
          url: mcpServerUrl(appUrl),
          code: (chunks) => <code className="rounded bg-slate-100 px-1 py-0.5 text-slate-800">{chunks}</code>,
          keys: (chunks) => (
            <Link prefetch={false} className="text-brand-700 underline" href="/dashboard/keys">
              {chunks}
            </Link>
          ),
          llms: (chunks) => (
            // eslint-disable-next-line @next/next/no-html-link-for-pages -- a text file from a route handler, not a page
            <a className="text-brand-700 underline" href="/llms.txt">
              {chunks}
            </a>
          ),
        })}
      </p>
      {snippets.map(([title, code, testId]) => (
        <figure key={testId} className="max-w-2xl overflow-hidden rounded-lg bg-slate-900">
          <figcaption className="flex items-center justify-between border-b border-slate-700 px-4 py-2 text-xs text-slate-300">
            {/* Product and file names. */}
            <span translate="no">{title}</span>
            <CopyButton text={code} />
          </figcaption>
          {/* Wrapped, not scrolled: a one-line command cut at the edge reads as the whole of it. */}
          <pre tabIndex={0} className="whitespace-pre-wrap p-4 text-sm text-slate-100 [overflow-wrap:anywhere]" data-testid={testId}>
            {code}
          </pre>
        </figure>
      ))}
    </div>
  );
}
