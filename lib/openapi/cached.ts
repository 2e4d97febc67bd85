import { env } from "@/lib/env";
import { buildOpenApiDocument } from "./document";

let doc: ReturnType<typeof buildOpenApiDocument> | undefined;

/** Built once per process: the operations are static. */
export function openApiDocument() {
  doc ??= buildOpenApiDocument(env().APP_URL);
  return doc;
}
