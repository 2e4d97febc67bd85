import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
// s3rver ships no types; it is a Koa app speaking the S3 REST protocol over a filesystem store.
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import S3rver from "s3rver";
import { s3Storage, type S3StorageOptions } from "@/lib/storage/s3";

export type S3Request = { method: string; path: string; query: string };

/**
 * A real S3-protocol server on loopback (s3rver), with a log of the requests it received so
 * tests can see a multipart upload happen (`POST ?uploads`, `PUT ?partNumber=…`).
 */
export async function startS3Server(bucket = "gw-test") {
  const directory = await mkdtemp(path.join(tmpdir(), "s3rver-"));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }] });
  await s3rver.configureBuckets();
  const requests: S3Request[] = [];
  const handle = s3rver.callback();
  const server = http.createServer((req, res) => {
    const [p, q = ""] = (req.url ?? "/").split("?");
    requests.push({ method: req.method ?? "GET", path: decodeURIComponent(p!), query: q });
    handle(req, res);
  });
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const options: S3StorageOptions = {
    bucket,
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  };
  return {
    endpoint,
    bucket,
    requests,
    /** Env values that select this server. */
    env: {
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    storage: (extra: Partial<S3StorageOptions> = {}) => s3Storage({ ...options, ...extra }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export type S3Server = Awaited<ReturnType<typeof startS3Server>>;
