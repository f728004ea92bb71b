/**
 * Proxies named, not guessed: X-Real-IP and X-Forwarded-Proto are believed only from the
 * addresses TRUST_PROXY lists (none unless set). From any other peer, loopback included, the
 * headers change nothing: the per-address limits count the peer, and the session cookie is
 * `Secure` only when the browser's own connection was TLS or a listed proxy says it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger, type Ledger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createAuth } from '../server/auth/auth.ts';
import { createTournament, registerTeam } from '../server/commands/tournament-commands.ts';
import { trustedProxies } from '../server/http/client-address.ts';
import { main } from '../server/cli/main.ts';

const ledgers: Ledger[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setUp(trustProxy: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'spades-proxy-'));
  dirs.push(dir);
  const ledger = openLedger({ path: join(dir, 'ledger.db'), synchronous: 'NORMAL' });
  ledgers.push(ledger);
  ledger.execute(createTournament(ledger.models, { tournamentId: 'cup', name: 'Harbour Cup', format: 'pitt-boss' }));
  for (let i = 1; i <= 4; i++) ledger.execute(registerTeam(ledger.models, { tournamentId: 'cup', teamId: `t${i}`, name: `Team ${i}`, players: ['a', 'b'] }));
  const auth = createAuth({ ledger });
  const { app } = createApp({ ledger, auth, ...(trustProxy !== undefined ? { trustProxy } : {}) });
  await auth.users.add('Jo Judge', 'judge', 'correct horse');
  /** A request from `peer`, as the Node server hands it over, with `headers`. */
  const from = (peer: string, path: string, init: RequestInit = {}) =>
    Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: peer } } }));
  const signIn = (peer: string, headers: Record<string, string>) =>
    from(peer, '/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'Jo Judge', password: 'correct horse' }),
    });
  return { from, signIn };
}

const wrongCode = (i: number) => `WRONG${String(i).padStart(5, '2').replace(/[01]/g, '9')}`.slice(0, 10);

/** The flags of the session cookie a sign-in set. */
const sessionCookie = (res: Response) => {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('spades_session='));
  expect(cookie, 'a session cookie').toBeDefined();
  return cookie!.split(';').map((part) => part.trim().toLowerCase());
};

describe('X-Real-IP', () => {
  it('is ignored from an address TRUST_PROXY does not list, loopback included: invented addresses still meet the limit', async () => {
    const { from } = await setUp('10.0.0.1');
    for (let i = 0; i < 10; i++)
      expect((await from('127.0.0.1', `/join?code=${wrongCode(i)}`, { headers: { 'x-real-ip': `203.0.113.${i}` } })).status).toBe(401);
    const refused = await from('127.0.0.1', `/join?code=${wrongCode(10)}`, { headers: { 'x-real-ip': '203.0.113.77' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('is ignored from every address when TRUST_PROXY is not set', async () => {
    const { from } = await setUp(undefined);
    for (let i = 0; i < 10; i++) expect((await from('::1', `/join?code=${wrongCode(i)}`, { headers: { 'x-real-ip': `198.51.100.${i}` } })).status).toBe(401);
    expect((await from('::1', `/join?code=${wrongCode(10)}`, { headers: { 'x-real-ip': '198.51.100.99' } })).status).toBe(429);
  });

  it('is believed from a listed proxy, whose clients are each counted on their own', async () => {
    const { from } = await setUp('10.0.0.1, ::1');
    for (let i = 0; i < 15; i++)
      expect((await from('10.0.0.1', `/join?code=${wrongCode(i)}`, { headers: { 'x-real-ip': `203.0.113.${i}` } })).status).toBe(401);
    // ::1 written another way is the same address.
    for (let i = 0; i < 15; i++)
      expect((await from('0:0:0:0:0:0:0:1', `/join?code=${wrongCode(i)}`, { headers: { 'x-real-ip': `203.0.114.${i}` } })).status).toBe(401);
  });
});

describe('the session cookie', () => {
  it('is Secure behind a trusted proxy that says the request came over HTTPS', async () => {
    const { signIn } = await setUp('127.0.0.1');
    const res = await signIn('127.0.0.1', { 'x-forwarded-proto': 'https', 'x-real-ip': '203.0.113.9' });
    expect(res.status).toBe(200);
    expect(sessionCookie(res)).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax']));
  });

  it('is not Secure when an untrusted peer says so, nor when the trusted proxy says plain HTTP', async () => {
    const untrusted = await setUp('10.0.0.1');
    const claimed = await untrusted.signIn('127.0.0.1', { 'x-forwarded-proto': 'https' });
    expect(claimed.status).toBe(200);
    expect(sessionCookie(claimed)).not.toContain('secure');
    const trusted = await setUp('127.0.0.1');
    const plain = await trusted.signIn('127.0.0.1', { 'x-forwarded-proto': 'http' });
    expect(sessionCookie(plain)).not.toContain('secure');
  });
});

describe('TRUST_PROXY', () => {
  it('takes addresses separated by commas or spaces, and refuses anything else in one line', () => {
    expect([...trustedProxies('127.0.0.1, ::1  10.1.2.3')]).toEqual(['127.0.0.1', '::1', '10.1.2.3']);
    expect([...trustedProxies(undefined)]).toEqual([]);
    expect(() => trustedProxies('127.0.0.1,localhost')).toThrow(
      "TRUST_PROXY lists the addresses of the proxies in front of the server (such as 127.0.0.1 or ::1), and 'localhost' is not an address",
    );
  });

  it('refused, stops the server before it opens anything: exit 2, one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spades-proxy-serve-'));
    dirs.push(dir);
    const saved = { ...process.env };
    Object.assign(process.env, { TRUST_PROXY: 'nginx', DATA_DIR: dir, PORT: '0' });
    const out = { stdout: '', stderr: '' };
    try {
      const code = await main(['serve', '--no-demo'], { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), stdin: async () => '' });
      expect(code).toBe(2);
    } finally {
      process.env = saved;
    }
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toContain("'nginx' is not an address");
  });
});
