/**
 * Which requests come from, or go to, this machine: the one local-host check and the one reading of
 * the client's address (issue 24), for the Worker, the site and the back end.
 */

/** This machine by name: plain localhost and the loopback addresses (not *.localhost). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

/** Hosts that only this machine reaches: plain localhost, *.localhost and loopback addresses. */
export function isLocalHost(hostname: string): boolean {
  return isLoopbackHost(hostname) || hostname.toLowerCase().endsWith(".localhost");
}

/** A loopback client address (127.0.0.0/8, ::1, IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string): boolean {
  return /^(127\.|::1$|::ffff:127\.)/.test(address);
}

/**
 * The client's address as Cloudflare gives it (`cf-connecting-ip`), or "" when there is none or it
 * is this machine's own (local development, tests): every local caller is one (docs/decisions/032).
 */
export function clientAddress(request: Request): string {
  const connecting = request.headers.get("cf-connecting-ip") ?? "";
  return isLoopbackAddress(connecting) ? "" : connecting;
}
