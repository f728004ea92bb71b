/**
 * `/healthz` tells the truth about the ledger, asking its storage: a `spades serve` process on
 * PostgreSQL answers 503 naming what is wrong within two seconds of the database stopping, and
 * 200 again once it is back, without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, killHard, removeTempDirs, startServeProcess, tempDir } from './fixtures/live-server.ts';
import { type PostgresCluster, noteMissingPostgres, postgres, startPostgres } from './fixtures/postgres.ts';

noteMissingPostgres('health-check');

interface Health {
  status: number;
  body: { ok: boolean; writable: boolean; reason?: string; position: number };
}

async function health(url: string): Promise<Health> {
  const res = await fetch(`${url}/healthz`);
  return { status: res.status, body: (await res.json()) as Health['body'] };
}

/** Asks /healthz every 50 ms until `wanted` holds; the answer and how long it took. */
async function until(url: string, wanted: (h: Health) => boolean, ms: number): Promise<{ health: Health; after: number }> {
  const started = performance.now();
  for (;;) {
    const answer = await health(url).catch((error: unknown) => ({ status: 0, body: { ok: false, writable: false, reason: String(error), position: -1 } }));
    if (wanted(answer)) return { health: answer, after: performance.now() - started };
    if (performance.now() - started > ms) throw new Error(`/healthz did not answer as wanted within ${ms} ms; it answered ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!postgres.available)('/healthz of a process on PostgreSQL', () => {
  let cluster: PostgresCluster;
  let server: ServeProcess;

  beforeAll(async () => {
    cluster = await startPostgres();
    const url = await cluster.createDatabase('health');
    server = await startServeProcess(tempDir('spades-health-'), 0, ['--no-demo'], { DATABASE_URL: url });
  }, 120_000);
  afterAll(async () => {
    if (server) await killHard(server.child);
    await cluster?.stop();
    removeTempDirs();
  });

  it('answers 503 naming the database within 2 s of it stopping, and 200 again once it is back, without a restart', async () => {
    const url = `http://127.0.0.1:${server.port}`;
    expect(await health(url)).toMatchObject({ status: 200, body: { ok: true, writable: true } });

    // when the database is shut down
    await cluster.halt();
    const down = await until(url, (h) => h.status === 503, 5000);
    // then /healthz says so within two seconds, in words an operator reads, with no code or stack
    expect(down.after).toBeLessThan(2000);
    expect(down.health.body).toMatchObject({ ok: false, writable: false });
    expect(down.health.body.reason).toMatch(/^the database does not answer/);
    expect(down.health.body.reason).not.toMatch(/ECONN|Error|\bat\b.*\.ts|\(/);

    // when the database is started again
    await cluster.resume();
    const up = await until(url, (h) => h.status === 200, 15_000);
    // then the same process answers 200 again
    expect(up.health.body).toMatchObject({ ok: true, writable: true });
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
  }, 60_000);
});
