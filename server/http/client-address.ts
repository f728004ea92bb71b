/**
 * Which address a request comes from, as the per-address limits count it, and whether it came
 * over HTTPS, as the cookies' `Secure` flag follows it. A proxy in front (the nginx of
 * `deploy/`) connects from its own address and says who its client is in X-Real-IP and how it
 * came in X-Forwarded-Proto; those are believed only from the addresses named in TRUST_PROXY
 * (none unless set), never guessed from where a connection comes: any other program on the
 * machine (a tunnel, `ssh -L`, another front end) could otherwise say whatever it liked and
 * switch the code, password and sign-up limits off. An IPv6 client is counted by its /64, the
 * block one machine is handed.
 */
import { isIP, isIPv4, isIPv6 } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';

/** The addresses whose forwarding headers are believed, as given (TRUST_PROXY). */
export type TrustedProxies = ReadonlySet<string>;

/**
 * The addresses TRUST_PROXY names: IPv4 or IPv6 addresses separated by commas or spaces; none
 * when it is unset or empty. Anything else is refused in one line, before the server listens.
 */
export function trustedProxies(setting: string | undefined): TrustedProxies {
  const problem = trustProxyProblem(setting);
  if (problem) throw new Error(problem);
  return new Set(entriesOf(setting).map(peerKey));
}

/** What is wrong with a TRUST_PROXY setting, as the one line the server stops with, or null. */
export function trustProxyProblem(setting: string | undefined): string | null {
  const wrong = entriesOf(setting).find((entry) => isIP(entry) === 0);
  return wrong === undefined
    ? null
    : `TRUST_PROXY lists the addresses of the proxies in front of the server (such as 127.0.0.1 or ::1), and '${wrong.slice(0, 40)}' is not an address`;
}

const entriesOf = (setting: string | undefined) => (setting ?? '').split(/[\s,]+/).filter(Boolean);

/** What a request says of itself once its proxy is believed or not. */
interface Forwarded {
  address: string;
  https: boolean;
}

declare module 'hono' {
  interface ContextVariableMap {
    /** What the request's proxy said of it, as far as it is believed (forwardedBy). */
    forwarded: Forwarded;
  }
}

type NodeEnv = { incoming?: { socket?: { remoteAddress?: string; encrypted?: boolean } } } | undefined;

/** The connection's own peer address, or undefined for an in-process request. */
function peerOf(c: Context): { address: string; encrypted: boolean } | undefined {
  const socket = (c.env as NodeEnv)?.incoming?.socket;
  return socket?.remoteAddress ? { address: socket.remoteAddress, encrypted: socket.encrypted === true } : undefined;
}

/** An address as compared with TRUST_PROXY: an IPv4 address also when written as IPv6, IPv6 in lower case. */
function peerKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  // One spelling for each IPv6 address (`0:0:0:0:0:0:0:1` is `::1`), as a URL writes it.
  return isIPv6(address) ? new URL(`http://[${address}]`).hostname.slice(1, -1) : address;
}

function forwardedOf(c: Context, trusted: TrustedProxies): Forwarded {
  const peer = peerOf(c);
  if (!peer) return { address: 'local', https: new URL(c.req.url).protocol === 'https:' };
  const believed = trusted.has(peerKey(peer.address));
  const real = believed ? c.req.header('x-real-ip')?.trim() : undefined;
  const proto = believed ? c.req.header('x-forwarded-proto')?.trim().toLowerCase() : undefined;
  return {
    address: addressKey(real && (isIPv4(real) || isIPv6(real)) ? real : peer.address),
    https: peer.encrypted || proto === 'https',
  };
}

/** Notes, for each request, what its proxy says of it when the proxy is one of `trusted`. */
export function forwardedBy(trusted: TrustedProxies): MiddlewareHandler {
  return async (c, next) => {
    c.set('forwarded', forwardedOf(c, trusted));
    await next();
  };
}

/** The address a request is counted under: an IPv4 address, an IPv6 /64, or `local` for an in-process request. */
export function clientAddress(c: Context): string {
  return (c.get('forwarded') ?? forwardedOf(c, new Set())).address;
}

/** Whether the browser reached the server over HTTPS: its own connection, or a trusted proxy's word. */
export function cameOverHttps(c: Context): boolean {
  return (c.get('forwarded') ?? forwardedOf(c, new Set())).https;
}

/** An address as counted: IPv4 as is (also when written as IPv6), IPv6 by its first 64 bits. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back] : front;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
