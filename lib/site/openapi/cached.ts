import { env } from "@/lib/core/env";
import { publicOpenApiDocument } from "./document";

let doc: ReturnType<typeof publicOpenApiDocument> | undefined;

/** Built once per process: the operations are static. */
export function openApiDocument() {
  doc ??= publicOpenApiDocument(env().APP_URL);
  return doc;
}
