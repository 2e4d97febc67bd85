import { readdirSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import type { RouteContext } from "@/lib/http/handler";
import { SOCKET_HEADER, stampValue } from "@/lib/net/socket-address";

/**
 * The app's route handlers (app/**\/route.ts) routed as Next.js routes them, in process: static
 * segments before a dynamic one before a catch-all, route groups left out, each param segment
 * decoded once (`%2F` inside a segment is a slash in its value), HEAD by GET where a route has no
 * HEAD, and a path no route serves answered with an HTML 404 as Next's own page would be. Pages,
 * proxy.ts and Next's trailing-slash redirect are not part of it (e2e/ covers them on the real
 * server).
 */
type Handler = (req: Request, context: RouteContext) => Promise<Response>;
type Node = {
  statics: Map<string, Node>;
  dynamic?: { name: string; node: Node };
  catchAll?: { name: string; file: string };
  file?: string;
};

const APP = path.resolve("app");
/** Paths proxy.ts rewrites to another route (see its `llms` rewrite). */
const REWRITES: [RegExp, string][] = [[/^\/catalog\/(.+)\/llms\.txt$/, "/llms.txt/$1"]];

const newNode = (): Node => ({ statics: new Map() });

function addRoutes(dir: string, node: Node): void {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (!statSync(full).isDirectory()) {
      if (name === "route.ts") node.file = full;
      continue;
    }
    if (/^\(.*\)$/.test(name)) {
      addRoutes(full, node);
      continue;
    }
    const catchAll = /^\[\.\.\.(\w+)\]$/.exec(name);
    if (catchAll) {
      const file = path.join(full, "route.ts");
      if (statSync(file, { throwIfNoEntry: false })) node.catchAll = { name: catchAll[1]!, file };
      continue;
    }
    const dynamic = /^\[(\w+)\]$/.exec(name);
    if (dynamic) {
      node.dynamic ??= { name: dynamic[1]!, node: newNode() };
      addRoutes(full, node.dynamic.node);
      continue;
    }
    const child = node.statics.get(name) ?? newNode();
    node.statics.set(name, child);
    addRoutes(full, child);
  }
}

let root: Node | undefined;
const tree = () => {
  if (!root) addRoutes(APP, (root = newNode()));
  return root;
};

type Match = { file: string; params: Record<string, string | string[]> };

function match(node: Node, segments: string[], params: Record<string, string | string[]>): Match | null {
  if (segments.length === 0) return node.file ? { file: node.file, params } : null;
  const [head, ...rest] = segments as [string, ...string[]];
  const child = node.statics.get(head);
  const found = child && match(child, rest, params);
  if (found) return found;
  if (node.dynamic && head !== "") {
    const dynamic = match(node.dynamic.node, rest, { ...params, [node.dynamic.name]: decodeURIComponent(head) });
    if (dynamic) return dynamic;
  }
  if (node.catchAll && segments.every((s) => s !== "")) {
    return { file: node.catchAll.file, params: { ...params, [node.catchAll.name]: segments.map((s) => decodeURIComponent(s)) } };
  }
  return null;
}

/** The route file and params Next.js would pick for a path, or null (its 404 page). */
export function routeOf(pathname: string): Match | null {
  let target = pathname;
  for (const [from, to] of REWRITES) target = target.replace(from, to);
  return match(tree(), target.split("/").slice(1), {});
}

const notFoundPage = () =>
  new Response("<!DOCTYPE html><html><body><h1>404: This page could not be found.</h1></body></html>", {
    status: 404,
    headers: { "content-type": "text/html; charset=utf-8" },
  });

/** Answers a request as the app's route handlers would behind Next.js. */
export async function appFetch(req: Request): Promise<Response> {
  const found = routeOf(new URL(req.url).pathname);
  if (!found) return notFoundPage();
  const route = (await import(found.file)) as Record<string, Handler | undefined>;
  const handler = route[req.method] ?? (req.method === "HEAD" ? route.GET : undefined);
  if (!handler) return new Response(null, { status: 405 });
  return handler(req, { params: Promise.resolve(found.params) });
}

/** The app's routes on loopback (see appFetch), for clients that speak HTTP (a generated API client). */
export async function serveApp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    // What the production server's stamp does (lib/net/socket-address.ts).
    headers.set(SOCKET_HEADER, stampValue(req.socket.remoteAddress ?? "127.0.0.1"));
    const request = new Request(new URL(req.url ?? "/", "http://127.0.0.1"), {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const response = await appFetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).pipe(res);
    else res.end();
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
