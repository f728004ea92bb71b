/**
 * The address printed on the table cards is one a phone can reach: the venue's PUBLIC_URL, the
 * address the director's page was reached at, or, when that is localhost, this machine's
 * address on the network, never `localhost`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkInterfaceInfo } from 'node:os';
import { createApp } from '../server/app/app.ts';
import { publicAddress } from '../server/http/public-address.ts';
import { type Fixture, makeFixture, open, send } from './routes-fixture.ts';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

const LAN: NodeJS.Dict<NetworkInterfaceInfo[]> = {
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
  wlan0: [{ address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal: false, cidr: '192.168.1.20/24' }],
};

describe('the address on the table cards', () => {
  it('is the page’s own address when another device can reach it', () => {
    expect(publicAddress('http://192.168.1.20:3000/director/tournaments/t1/codes', undefined, LAN)).toEqual({ origin: 'http://192.168.1.20:3000', note: null });
  });

  it('is this machine’s network address, with the port, when the page was opened at localhost, and says so', () => {
    const address = publicAddress('http://localhost:3000/director/tournaments/t1/codes', undefined, LAN);
    expect(address.origin).toBe('http://192.168.1.20:3000');
    expect(address.note).toContain('opened at localhost:3000, which phones cannot reach');
    expect(publicAddress('http://127.0.0.1:8080/x', undefined, LAN).origin).toBe('http://192.168.1.20:8080');
  });

  it('is the venue’s PUBLIC_URL when set, and names a PUBLIC_URL that is not an address', () => {
    expect(publicAddress('http://localhost:3000/x', 'https://spades.example.org/', LAN)).toEqual({
      origin: 'https://spades.example.org',
      note: 'The codes use the venue’s public address https://spades.example.org (PUBLIC_URL).',
    });
    const wrong = publicAddress('http://localhost:3000/x', 'spades dot org', LAN);
    expect(wrong.origin).toBe('http://192.168.1.20:3000');
    expect(wrong.note).toContain("PUBLIC_URL 'spades dot org' is not an http or https address");
  });

  it('says so when there is nothing better than localhost', () => {
    const alone = publicAddress('http://localhost:3000/x', undefined, { lo: LAN.lo });
    expect(alone.origin).toBe('http://localhost:3000');
    expect(alone.note).toContain('set PUBLIC_URL');
  });
});

describe('the printed table cards', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await makeFixture();
  });
  afterAll(() => fixture?.close());

  it('carry the configured public address in every link and QR code, never localhost', async () => {
    const path = join(fixture.dir, 'public-address.db');
    copyFileSync(fixture.template, path);
    const ledger = open(path);
    const { app, auth, broadcaster } = createApp({ ledger, publicUrl: 'http://10.0.0.5:3000' });
    try {
      const html = await (await send(app, fixture.clients.director, 'GET', 'http://localhost:3000/director/tournaments/t1/codes')).text();
      expect(html).toContain(`http://10.0.0.5:3000/join?code=${await auth.tableCode('t1', 1)}`);
      expect(html).toContain('data-public-address="http://10.0.0.5:3000"');
      expect(html).not.toContain('localhost:3000/join');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});
