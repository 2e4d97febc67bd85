import { randomUUID } from "node:crypto";
import { renameSync, writeFileSync } from "node:fs";
import { copyFile, mkdir, open, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { isValidKey } from "./keys";
import { contentTypeForKey } from "./media-types";
import { resolveRange } from "./range";
import { pipeIntoFile } from "./spool";
import { keyUnder, type ObjectInfo, type ObjectRead, type ObjectSource, type ObjectStorage, type RangeRequest } from "./types";

// Paths here are built at run time from DATA_DIR and object keys; `turbopackIgnore` stops the
// bundler from tracing the whole project into the server output because of them.

/**
 * Small objects (most generation results) are written with synchronous calls: each asynchronous
 * fs call hands its work to a pool thread and back, and on these VMs that wake-up cost the event
 * loop more than the system call itself (CPU profile under load: open + write + close + rename
 * ≈ 0.6 ms of the main thread per file asynchronously, with fs/promises' FileHandle even more).
 * Four page-cache system calls block the loop for far less; larger objects stay asynchronous.
 */
const SYNC_WRITE_MAX_BYTES = 256 * 1024;

async function writeInto(tmp: string, bytes: Uint8Array, target: string): Promise<void> {
  const small = bytes.byteLength <= SYNC_WRITE_MAX_BYTES;
  if (small) writeFileSync(tmp, bytes);
  else await writeFile(tmp, bytes);
  await intoPlace(target, small ? async () => renameSync(tmp, target) : () => rename(tmp, target));
}

const etagOf = (size: number, mtimeMs: number) => `"${size.toString(36)}-${Math.floor(mtimeMs).toString(36)}"`;

/**
 * The embedded driver: objects are files under `root` (DATA_DIR/assets), written to a temp file
 * and renamed into place, so a reader sees the whole object or none. The app serves them at
 * `/files/<key>`; the Content-Type comes from the key's extension.
 */
export function localStorage(options: { root: string; baseUrl: string }): ObjectStorage {
  const root = path.resolve(options.root);
  const spoolDir = path.join(root, ".tmp");
  const base = options.baseUrl.replace(/\/+$/, "");
  let ready: Promise<void> | undefined;
  const ensureDirs = () => (ready ??= mkdir(spoolDir, { recursive: true }).then(() => sweepStale(spoolDir)));

  // Keys are ours, but the serving route passes URL paths here: nothing may climb out of root.
  const fileOf = (key: string) => {
    if (!isValidKey(key)) return null;
    return path.join(root, ...key.split("/"));
  };

  async function put(key: string, source: ObjectSource) {
    const target = fileOf(key);
    if (!target) throw new Error(`Unsafe object key: ${key}`);
    await ensureDirs();
    if (!(source instanceof Uint8Array) && !(source instanceof Readable)) {
      await intoPlace(target, () => moveInto(source.filePath, target, spoolDir));
    } else {
      const tmp = path.join(spoolDir, `${randomUUID()}.part`);
      try {
        if (source instanceof Uint8Array) {
          await writeInto(tmp, source, target);
        } else {
          await pipeIntoFile(tmp, source);
          await intoPlace(target, () => rename(tmp, target));
        }
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    }
    // Bytes in memory have a known length; a stream or a moved file is measured where it landed.
    if (source instanceof Uint8Array) return { sizeBytes: source.byteLength };
    return { sizeBytes: (await stat(/*turbopackIgnore: true*/ target)).size };
  }

  async function get(key: string, range?: RangeRequest): Promise<ObjectRead | null> {
    const file = fileOf(key);
    if (!file) return null;
    // Open first: an open descriptor keeps the bytes readable even if the object is deleted now.
    const handle = await open(/*turbopackIgnore: true*/ file, "r").catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "EISDIR" || err.code === "ENOTDIR") return null;
      throw err;
    });
    if (!handle) return null;
    try {
      const st = await handle.stat();
      if (!st.isFile()) {
        await handle.close();
        return null;
      }
      const resolved = range ? resolveRange(range, st.size) : null;
      const body =
        st.size === 0 ? Readable.from([]) : handle.createReadStream(resolved ? { start: resolved.start, end: resolved.end } : {});
      if (st.size === 0) await handle.close();
      return {
        body,
        range: resolved,
        totalBytes: st.size,
        contentType: contentTypeForKey(key),
        etag: etagOf(st.size, st.mtimeMs),
        lastModified: st.mtime,
      };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async function head(key: string): Promise<ObjectInfo | null> {
    const file = fileOf(key);
    if (!file) return null;
    const st = await stat(/*turbopackIgnore: true*/ file).catch(() => null);
    if (!st?.isFile()) return null;
    return { totalBytes: st.size, contentType: contentTypeForKey(key), etag: etagOf(st.size, st.mtimeMs), lastModified: st.mtime };
  }

  return {
    driver: "local",
    bucket: "local",
    spoolDir,
    put: (key, source) => put(key, source),
    get,
    head,
    async delete(key) {
      const file = fileOf(key);
      if (file) await rm(file, { force: true });
    },
    publicUrl: (key) => `${base}/files/${key.split("/").map(encodeURIComponent).join("/")}`,
    keyOf: (url) => keyUnder(url, [`${base}/files/`]),
    async providerUrl(key) {
      return { url: `${base}/files/${key.split("/").map(encodeURIComponent).join("/")}`, expiresAt: null };
    },
  };
}

/**
 * Moves a finished file into place. The key's directory is made only when the move finds it
 * missing (its first object), not before every write: on the hot path that is one rename.
 */
async function intoPlace(target: string, move: () => Promise<void>): Promise<void> {
  try {
    await move();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    await mkdir(path.dirname(target), { recursive: true });
    await move();
  }
}

async function moveInto(from: string, to: string, spoolDir: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
    // A spool file on another disk: copy next to the target, then rename into place.
    const tmp = path.join(spoolDir, `${randomUUID()}.part`);
    try {
      await copyFile(from, tmp);
      await rename(tmp, to);
    } finally {
      await rm(tmp, { force: true });
    }
  }
}

/** Spool files left by a crash are removed once they are a day old. */
async function sweepStale(dir: string): Promise<void> {
  const cutoff = Date.now() - 86_400_000;
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const st = await stat(/*turbopackIgnore: true*/ file).catch(() => null);
      if (st && st.mtimeMs < cutoff) await rm(file, { force: true, recursive: true });
    }),
  );
}
