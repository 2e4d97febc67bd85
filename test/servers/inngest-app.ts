import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

type Method = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "DELETE" | "PATCH", Method>>;

/**
 * Hosts route handler modules on a loopback port, so a client can reach them over real HTTP (as
 * an Inngest server reaches /api/inngest): each request is turned into a fetch Request and handed
 * to the module's exported method, the Response written back as is.
 */
export async function serveRoutes(routes: Record<string, RouteModule>) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
      const handler = routes[url.pathname]?.[req.method as keyof RouteModule];
      if (!handler) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not_found" }));
        return;
      }
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : await readBody(req);
      const response = await handler(
        new Request(url, { method: req.method, headers: headersOf(req), body: body ? new Uint8Array(body) : undefined }),
        { params: Promise.resolve({}) },
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}
