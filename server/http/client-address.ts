/**
 * Which address a request comes from, as the per-address limits count it. Behind the nginx of
 * `deploy/` every request arrives from loopback with the client's address in X-Real-IP (nginx
 * sets it, overwriting whatever the client sent), so that header is believed from loopback only.
 * An IPv6 client is counted by its /64, the block one machine is handed.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { Context } from 'hono';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The address a request is counted under: an IPv4 address, an IPv6 /64, or `local` for an in-process request. */
export function clientAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const peer = env?.incoming?.socket?.remoteAddress;
  if (!peer) return 'local';
  const forwarded = LOOPBACK.has(peer) ? c.req.header('x-real-ip')?.trim() : undefined;
  return addressKey(forwarded && (isIPv4(forwarded) || isIPv6(forwarded)) ? forwarded : peer);
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
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
