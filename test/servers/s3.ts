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
 * What the server behind a test does where S3 servers differ, so a test asserts the behaviour of
 * the server it runs on instead of skipping (docs/storage.md lists what was verified where).
 */
export type S3Traits = {
  /** A request signed with the wrong secret, or a presigned URL with a forged signature, is 403. */
  verifiesSignatures: boolean;
  /** An unsigned GET of `/bucket/key` on the endpoint serves a public object (else S3_PUBLIC_URL names where). */
  bucketUrlServesAnonymously: boolean;
  /** The SDK's default streaming upload (aws-chunked body with a trailing checksum) is accepted (else 501). */
  acceptsAwsChunked: boolean;
};

/**
 * An S3 server on loopback for the storage and upload suites, with a log of the requests it
 * received so tests can see a multipart upload happen (`POST ?uploads`, `PUT ?partNumber=…`).
 *
 * By default it is s3rver, an emulator started in-process. With `TEST_S3_ENDPOINT` set (CI sets
 * it from `../shared/tools/s3-server start`: OpenStack Swift's S3 API) the same suites run against
 * that real server instead, through a logging pass-through proxy on loopback (it forwards every
 * request unchanged, Host included, so signatures still verify). Variables: TEST_S3_ENDPOINT,
 * TEST_S3_BUCKET, TEST_S3_ACCESS_KEY_ID, TEST_S3_SECRET_ACCESS_KEY, TEST_S3_REGION (us-east-1),
 * TEST_S3_PUBLIC_URL (where anonymous reads work; on Swift `/v1/AUTH_<account>/<bucket>`).
 */
export async function startS3Server(bucket = "gw-test"): Promise<S3Server> {
  return process.env.TEST_S3_ENDPOINT ? startRealS3() : startS3rver(bucket);
}

export type S3Server = {
  /** Which server answers: the emulator, or the real one named by TEST_S3_ENDPOINT. */
  kind: "s3rver" | "swift";
  /** The server's own version where it says (Swift's /info), for the record. */
  version: string | null;
  traits: S3Traits;
  /** Where the tests reach it (the logging proxy for a real server). */
  endpoint: string;
  bucket: string;
  /** Base of the display URLs the driver builds on this server (the bucket URL, or S3_PUBLIC_URL). */
  publicBase: string;
  requests: S3Request[];
  /** Env values that select this server. */
  env: Record<string, string>;
  storage: (extra?: Partial<S3StorageOptions>) => ReturnType<typeof s3Storage>;
  /** The options `storage()` uses (credentials included), for building other clients. */
  options: S3StorageOptions;
  close: () => Promise<void>;
};

/** A loopback HTTP server that logs each request and hands it to `handle`. */
async function loggingServer(handle: http.RequestListener) {
  const requests: S3Request[] = [];
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
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function handleFor(options: S3StorageOptions, rest: Omit<S3Server, "storage" | "options" | "publicBase">): S3Server {
  const storage = (extra: Partial<S3StorageOptions> = {}) => s3Storage({ ...options, ...extra });
  const probe = storage();
  return { ...rest, options, storage, publicBase: probe.publicUrl("k").replace(/\/k$/, "") };
}

async function startS3rver(bucket: string): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), "s3rver-"));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }] });
  await s3rver.configureBuckets();
  const server = await loggingServer(s3rver.callback());
  const options: S3StorageOptions = {
    bucket,
    region: "us-east-1",
    endpoint: server.url,
    forcePathStyle: true,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  };
  return handleFor(options, {
    kind: "s3rver",
    version: null,
    // s3rver checks a presigned URL's expiry but no signature, and serves every object anonymously.
    traits: { verifiesSignatures: false, bucketUrlServesAnonymously: true, acceptsAwsChunked: true },
    endpoint: server.url,
    bucket,
    requests: server.requests,
    env: {
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: server.url,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  });
}

async function startRealS3(): Promise<S3Server> {
  const upstream = new URL(process.env.TEST_S3_ENDPOINT!);
  const bucket = process.env.TEST_S3_BUCKET ?? "test-bucket";
  const agent = new http.Agent({ keepAlive: true });
  const server = await loggingServer((req, res) => {
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    // A client that goes away mid-body (an aborted upload) goes away upstream too.
    res.on("close", () => {
      if (!res.writableFinished) forward.destroy();
    });
    req.pipe(forward);
  });
  // Anonymous reads go to the real server's public path, through the proxy when it is the same origin.
  const publicUrl = process.env.TEST_S3_PUBLIC_URL?.replace(upstream.origin, server.url);
  const options: S3StorageOptions = {
    bucket,
    region: process.env.TEST_S3_REGION ?? "us-east-1",
    endpoint: server.url,
    forcePathStyle: true,
    accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID,
    secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY,
    publicUrl,
  };
  const info = (await fetch(`${upstream.origin}/info`)
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null)) as { swift?: { version?: string } } | null;
  const version = info?.swift?.version ?? null;
  const [major = 0, minor = 0] = (version ?? "0.0").split(".").map(Number);
  return handleFor(options, {
    kind: "swift",
    version,
    traits: {
      verifiesSignatures: true,
      // Swift's s3api answers an unsigned GET of /bucket/key with 400; its own path serves it.
      bucketUrlServesAnonymously: false,
      // Measured: Swift 2.30 (Debian 12) answers aws-chunked uploads 501, 2.35 (Debian 13) accepts them.
      acceptsAwsChunked: major > 2 || (major === 2 && minor >= 35),
    },
    endpoint: server.url,
    bucket,
    requests: server.requests,
    env: {
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: server.url,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: options.accessKeyId ?? "",
      S3_SECRET_ACCESS_KEY: options.secretAccessKey ?? "",
      S3_REGION: options.region,
      S3_FORCE_PATH_STYLE: "true",
      ...(publicUrl ? { S3_PUBLIC_URL: publicUrl } : {}),
    },
    close: async () => {
      await server.close();
      agent.destroy();
    },
  });
}
