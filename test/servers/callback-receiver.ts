import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedCallback = { headers: http.IncomingHttpHeaders; body: string; status: number };

/**
 * A loopback receiver of completion callbacks: records every delivery and answers 500 to the
 * first `failFirst` of them (a receiver that is down for a while).
 */
export async function startCallbackReceiver(options: { failFirst?: number } = {}) {
  const received: ReceivedCallback[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const status = received.length < (options.failFirst ?? 0) ? 500 : 204;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/done`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
