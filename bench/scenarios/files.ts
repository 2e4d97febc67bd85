import { createHash, randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import path from "node:path";
import postgres from "postgres";
import sharp from "sharp";
import { load, type LoadResult } from "../lib/load";
import type { Row } from "../lib/report";
import type { Scenario } from "./types";

/** A user and a live key written straight into the bench database (no sign-in flow needed). */
async function benchKey(databaseUrl: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const key = `gw_live_${randomBytes(40)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 40)
    .padEnd(40, "a")}`;
  const userId = `bench-files-${Date.now()}`;
  await sql`insert into users (id, email, name) values (${userId}, ${`${userId}@bench.test`}, 'bench')`;
  await sql`insert into api_keys (id, user_id, name, hash, prefix, start, mode)
            values (${`key_${userId}`}, ${userId}, 'bench', ${createHash("sha256").update(key).digest("hex")}, 'gw_live', ${key.slice(0, 13)}, 'live')`;
  return { key, userId, sql };
}

function multipart(file: Buffer, type: string) {
  const boundary = "----gwbench";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\nContent-Type: ${type}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const row = (name: string, r: LoadResult, baseline: LoadResult): Row => ({
  request: name,
  "req/s": Math.round(r.rps),
  "× baseline": (r.rps / baseline.rps).toFixed(2),
  "p50 ms": r.latencyMs.p50,
  "p99 ms": r.latencyMs.p99,
  errors: r.errors + r.non2xx,
});

/**
 * Serving a stored file from local storage (whole and by range) and uploading a small image,
 * at concurrency 16, beside GET /health of the same run.
 */
export const filesScenario: Scenario = {
  name: "files",
  description: "GET /files/<key> (a 128×128 JPEG, whole and ranged) and POST /me/uploads (small PNG) at c16",
  async run({ server, baseline }) {
    const { key, userId, sql } = await benchKey(server.databaseUrl);
    const auth = { authorization: `Bearer ${key}` };
    try {
      const jpeg = await sharp(randomBytes(128 * 128 * 3), { raw: { width: 128, height: 128, channels: 3 } })
        .jpeg({ quality: 95 })
        .toBuffer();
      const up = multipart(jpeg, "image/jpeg");
      const res = await fetch(`${server.baseUrl}/me/uploads`, {
        method: "POST",
        headers: { ...auth, "content-type": up.contentType },
        body: up.body,
      });
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
      const url = ((await res.json()) as { url: string }).url;
      const fileUrl = `${server.baseUrl}${new URL(url).pathname}`;

      const whole = await load({ url: fileUrl, connections: 16, duration: 10 });
      const ranged = await load({ url: fileUrl, connections: 16, duration: 10, headers: { range: "bytes=0-4095" } });
      const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#36c" } })
        .png()
        .toBuffer();
      const small = multipart(png, "image/png");
      const uploads = await load({
        url: `${server.baseUrl}/me/uploads`,
        connections: 16,
        duration: 10,
        method: "POST",
        headers: { ...auth, "content-type": small.contentType },
        body: small.body,
      });
      return {
        title: `Files (local storage), concurrency 16; baseline GET /health ${Math.round(baseline.rps)} req/s`,
        rows: [
          row(`GET /files (${jpeg.length} B)`, whole, baseline),
          row("GET /files Range 4 KiB", ranged, baseline),
          row(`POST /me/uploads (${png.length} B PNG)`, uploads, baseline),
        ],
        data: { whole, ranged, uploads, jpegBytes: jpeg.length, pngBytes: png.length },
      };
    } finally {
      // Remove what the run stored from the local data directory.
      const keys = await sql<{ s3_key: string }[]>`select s3_key from assets where user_id = ${userId}`;
      const root = path.resolve(process.env.DATA_DIR ?? "./data", "assets");
      await Promise.all(keys.map((k) => rm(path.join(root, k.s3_key), { force: true })));
      await sql.end();
    }
  },
};
