// DNS-rebinding defence: a page on evil.example whose name is re-pointed at 127.0.0.1 reaches this
// server with its own name in the Host header. Only loopback names on our own port are served.

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True when `host` (the Host header) names a loopback address and exactly the server's port. */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(host.trim().toLowerCase());
  if (!match) return false; // the port must be present: browsers always send it for non-80 ports
  const [, name, portText] = match;
  return LOOPBACK_NAMES.has(name!) && Number(portText) === port;
}
