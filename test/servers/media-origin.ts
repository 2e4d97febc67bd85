import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type OriginHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A loopback HTTP server standing in for a provider's CDN (or any URL a user gives us). It binds
 * 127.0.0.2 by default, so a test can allow exactly that address while 127.0.0.1 stays refused.
 */
export async function startMediaOrigin(host = "127.0.0.2") {
  const routes = new Map<string, OriginHandler>();
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    host,
    port,
    origin,
    url: (path: string) => `${origin}${path}`,
    hits,
    /** Answers `path` with these bytes. */
    file(path: string, body: Uint8Array | string, contentType = "application/octet-stream", headers: Record<string, string> = {}) {
      routes.set(path, (_req, res) => {
        res.writeHead(200, { "content-type": contentType, "content-length": String(Buffer.byteLength(body)), ...headers });
        res.end(body);
      });
    },
    redirect(path: string, location: string, status = 302) {
      routes.set(path, (_req, res) => res.writeHead(status, { location }).end());
    },
    handle(path: string, handler: OriginHandler) {
      routes.set(path, handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export type MediaOrigin = Awaited<ReturnType<typeof startMediaOrigin>>;
