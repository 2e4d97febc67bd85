import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { authSecret } from "./secret";

/**
 * Encryption at rest for secrets the service must be able to read back (webhook signing secrets):
 * AES-256-GCM with a key derived from the auth secret by HKDF, the row's owner as associated data
 * (a sealed value copied onto another user's row does not open). Format `v1.<iv>.<ciphertext>.<tag>`
 * in base64url. A database dump alone therefore reveals no signing secret; changing AUTH_SECRET
 * makes stored ones unreadable, and they are then replaced (see lib/account/webhook-secret.ts).
 */
const VERSION = "v1";

function key(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret(), Buffer.alloc(0), `generation-gateway/${purpose}/${VERSION}`, 32));
}

export function seal(plaintext: string, purpose: string, associated: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(purpose), iv);
  cipher.setAAD(Buffer.from(associated));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, ciphertext, cipher.getAuthTag()].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The plaintext, or null when the value was sealed under another key or tampered with. */
export function open(sealed: string, purpose: string, associated: string): string | null {
  const [version, iv, ciphertext, tag] = sealed.split(".");
  if (version !== VERSION || !iv || !ciphertext || !tag) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(purpose), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(associated));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
