import { networkInterfaces } from "node:os";

/**
 * What the server can tell about APP_URL at start-up. It cannot know its public address, but when
 * APP_URL names this machine (a loopback host) on another port than the one it listens on, every
 * link it hands out (result and upload URLs, sign-in e-mails) reaches some other program, or
 * nothing: worth one warning at start.
 */
export const isLoopbackHost = (hostname: string) => {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1";
};

/** The warning for an APP_URL set by hand, or null when nothing looks wrong. */
export function appUrlMismatch(appUrl: string, listeningPort: number | undefined): string | null {
  if (!listeningPort) return null;
  const url = new URL(appUrl);
  if (!isLoopbackHost(url.hostname)) return null;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  if (port === listeningPort) return null;
  return (
    `APP_URL points at port ${port} of this machine but the server listens on port ${listeningPort}: ` +
    "the links it hands out will not reach it unless something forwards that port (unset APP_URL to use the listening address)"
  );
}

/** The port `next start` bound: it sets PORT to it before the app reads its settings. */
export function listeningPort(): number | undefined {
  const port = Number(process.env.PORT);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/**
 * `http://<host>` for a request's Host header that names this machine: a loopback name or address,
 * or an address of one of its interfaces (any port: a forwarded port still reaches it). Null for
 * anything else, such as a name a client made up: a link built from it could lead anywhere.
 */
export function thisMachineOrigin(host: string | null | undefined): string | null {
  if (!host) return null;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return null;
  }
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash || url.host !== host.toLowerCase()) return null;
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  if (isLoopbackHost(hostname)) return url.origin;
  const own = Object.values(networkInterfaces()).some((list) => list?.some((a) => a.address.toLowerCase() === hostname));
  return own ? url.origin : null;
}
