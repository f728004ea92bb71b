/**
 * The address phones reach the server at, for the QR codes and links printed on the table
 * cards. A director who opens the codes page at `localhost` on the server's own machine would
 * otherwise print links no phone can follow. In order: the public address the venue set
 * (PUBLIC_URL), else the address the page was asked for when it is one another device can reach,
 * else this machine's address on the local network, with the port the page was reached on.
 */
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';

export interface PublicAddress {
  /** `http://192.168.1.20:3000`: scheme, host and port, no trailing slash. */
  origin: string;
  /** Why this address was chosen, when it is not the one the page was asked for; null otherwise. */
  note: string | null;
}

/** The machine's network interfaces, or how to ask for them. */
type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]> | (() => NodeJS.Dict<NetworkInterfaceInfo[]>);

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\]|0\.0\.0\.0|\[::\])$/i;

/** The address for a page asked for at `requestUrl`, given the configured public address (if any). */
export function publicAddress(requestUrl: string, configured: string | undefined, interfaces: Interfaces = networkInterfaces): PublicAddress {
  const asked = new URL(requestUrl);
  if (configured?.trim()) {
    let url: URL | null = null;
    try {
      url = new URL(configured.trim());
    } catch {
      url = null;
    }
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
      const origin = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
      return { origin, note: origin === asked.origin ? null : `The codes use the venue’s public address ${origin} (PUBLIC_URL).` };
    }
    const fallback = reachable(asked, interfaces);
    return {
      origin: fallback.origin,
      note: `PUBLIC_URL '${configured}' is not an http or https address, so the codes use ${fallback.origin}. ${fallback.note ?? ''}`.trim(),
    };
  }
  return reachable(asked, interfaces);
}

function reachable(asked: URL, interfaces: Interfaces): PublicAddress {
  if (!LOOPBACK.test(asked.hostname)) return { origin: asked.origin, note: null };
  // The machine's interfaces are asked for only here: a page asked for at a reachable address, as
  // every screen in the room is, costs no call to the system.
  const lan = Object.values(typeof interfaces === 'function' ? interfaces() : interfaces)
    .flat()
    .find((i): i is NetworkInterfaceInfo => Boolean(i && i.family === 'IPv4' && !i.internal));
  if (!lan) {
    return {
      origin: asked.origin,
      note: `This page was opened at ${asked.host}, which phones cannot reach, and this machine has no network address to use instead; set PUBLIC_URL to the address phones use.`,
    };
  }
  const origin = `${asked.protocol}//${lan.address}${asked.port ? `:${asked.port}` : ''}`;
  return {
    origin,
    note: `This page was opened at ${asked.host}, which phones cannot reach; the codes use ${origin}, this machine’s address on the network. Set PUBLIC_URL if phones reach the server at another address.`,
  };
}
