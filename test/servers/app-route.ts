import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { RouteHandler } from "@/lib/http/handler";
import { SOCKET_HEADER, stampValue } from "@/lib/net/socket-address";

/**
 * Serves route handlers on loopback, so code that calls the app over HTTP (the local payment
 * provider notifying /webhooks/yookassa/notify) reaches the real handler in the test process.
 */
export async function serveRoutes(routes: Record<string, RouteHandler>): Promise<{ url: string; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const handler = routes[url.pathname];
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    // What the production server's stamp does (lib/net/socket-address.ts).
    headers.set(SOCKET_HEADER, stampValue(req.socket.remoteAddress ?? "127.0.0.1"));
    const response = await handler(
      new Request(url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }),
      { params: Promise.resolve({}) },
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
