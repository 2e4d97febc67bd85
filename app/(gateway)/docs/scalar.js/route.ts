import { readFile } from "node:fs/promises";
import path from "node:path";
import { systemOperations } from "@/lib/http/contracts/system";
import { serving } from "@/lib/http/handler";

let bundle: Promise<Buffer> | undefined;

// GET /docs/scalar.js – Scalar's browser bundle from node_modules, so /docs works offline
export const GET = serving(systemOperations.getDocsScript, async () => {
  bundle ??= readFile(path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js"));
  return new Response(new Uint8Array(await bundle), {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
});
