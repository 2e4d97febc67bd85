/**
 * How to connect an MCP client, as the landing page, /docs and llms.txt show it: the server URL
 * and the key header, in the `mcpServers` JSON that Claude Code (`.mcp.json`), Cursor
 * (`mcp.json`) and most other hosts read, and as a Claude Code command.
 */
export const mcpServerUrl = (appUrl: string) => new URL("/mcp", appUrl).toString();

export function mcpClientConfig(appUrl: string, key = "YOUR_API_KEY"): string {
  const config = {
    mcpServers: { "generation-gateway": { type: "http", url: mcpServerUrl(appUrl), headers: { Authorization: `Bearer ${key}` } } },
  };
  return JSON.stringify(config, null, 2);
}

export const claudeCodeCommand = (appUrl: string, key = "YOUR_API_KEY") =>
  `claude mcp add --transport http generation-gateway ${mcpServerUrl(appUrl)} --header "Authorization: Bearer ${key}"`;
