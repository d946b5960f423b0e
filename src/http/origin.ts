import type { IncomingMessage } from 'node:http';

/** 127.0.0.0/8, ::1 and localhost: reachable only from this machine. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The host name of a Host header or an origin's authority, without port or brackets. */
function hostName(authority: string): string {
  const m = /^\[([^\]]*)\]|^([^:]*)/.exec(authority);
  return (m?.[1] ?? m?.[2] ?? '').toLowerCase();
}

/**
 * DNS-rebinding protection. A loopback server accepts only loopback Host names: a web page
 * on evil.example that resolves to 127.0.0.1 sends `Host: evil.example`. A server bound
 * beyond loopback always requires a token (so a page cannot borrow a person's access), and
 * sits behind names we do not know (a proxy's), so any Host is accepted there. A browser's
 * Origin, when sent, must name the same host as Host (or loopback on a loopback server).
 * Returns the reason for a 403, or undefined.
 */
export function foreignRequest(req: IncomingMessage, loopbackOnly: boolean): string | undefined {
  const host = req.headers.host;
  if (!host) return 'no Host header';
  if (loopbackOnly && !isLoopback(hostName(host))) return `Host '${cut(host)}' is not a loopback name`;
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  let originHost: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `Origin '${cut(origin)}' is not allowed`;
    originHost = hostName(url.host);
  } catch {
    return `Origin '${cut(origin)}' is not allowed`;
  }
  if (originHost === hostName(host)) return undefined;
  if (loopbackOnly && isLoopback(originHost)) return undefined;
  return `Origin '${cut(origin)}' is not allowed`;
}

function cut(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}
