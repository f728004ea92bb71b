/**
 * The ledger as server processes use it on PostgreSQL: each process folds what any of them
 * appends (announced by NOTIFY), and decides only from the versions it folded, so several
 * processes driving the same tables at once record nothing decided from a stale view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { checkPgSnapshots } from '../events/store/postgres/snapshots.ts';
import { MODELS_VERSION } from '../events/store/served-ledger.ts';
import { foldPostgresModels } from '../events/store/postgres/ledger-tools.ts';
import { type PostgresLedger, lease, openPostgresLedger } from '../events/store/postgres/served-ledger.ts';
import { DEMO_TOURNAMENT, createDemo } from '../server/serve/serve.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { createTournament, registerTeam } from '../server/commands/tournament-commands.ts';
import { createApp } from '../server/app/app.ts';
import { createAuth, postgresAuthStorage } from '../server/auth/auth.ts';
import { standingsCsv } from '../server/audit/standings-csv.ts';
import { exportPostgresLedger } from '../events/store/postgres/ledger-tools.ts';
import { formatDigest } from '../events/hash-chain.ts';
import { projected } from '../events/store/served-ledger.ts';
import { applyEvent, emptyModels } from '../events/projections.ts';
import { type PostgresCluster, noteMissingPostgres, postgres, startPostgres } from './fixtures/postgres.ts';
import { waitFor } from './fixtures/live-server.ts';
import { rankedTeams } from '../events/standings.ts';

noteMissingPostgres('pg-served-ledger');

let cluster: PostgresCluster;
const newDatabase = () => cluster.createDatabase('served');

describe.skipIf(!postgres.available)('the served ledger on PostgreSQL', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('folds what another process appends within a second, without being asked, to the models a rebuild gives', async () => {
    const url = await newDatabase();
    const a = await openPostgresLedger({ url });
    const b = await openPostgresLedger({ url });
    try {
      const seen: number[] = [];
      b.onChange((_change, events) => seen.push(...events.map((e) => e.position)));
      await createDemo(a);
      for (let i = 0; i < 40; i++) await driveTables(a, { tournamentId: DEMO_TOURNAMENT, seed: 'fold' });
      const head = a.models.position;
      expect(head).toBeGreaterThan(100);
      await waitFor('the other process to fold every event', () => b.models.position === head, 1000);
      // Every event once, in position order, told to the listeners as it was folded.
      expect(seen).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      const rebuilt = await foldPostgresModels(a.store);
      expect(JSON.parse(JSON.stringify(b.models))).toEqual(JSON.parse(JSON.stringify(rebuilt)));
      expect(JSON.parse(JSON.stringify(a.models))).toEqual(JSON.parse(JSON.stringify(rebuilt)));
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);

  it('lets three processes set up and drive the same tables at once, recording nothing decided from a stale view', async () => {
    const url = await newDatabase();
    const ledgers: PostgresLedger[] = await Promise.all([1, 2, 3].map(() => openPostgresLedger({ url })));
    try {
      // Each set-up step has its command id: done once however many processes race for it.
      await Promise.all(ledgers.map((ledger) => createDemo(ledger)));
      await Promise.all(ledgers.map((ledger) => ledger.syncTo(Number.MAX_SAFE_INTEGER)));
      expect(ledgers[0]!.models.tournaments[DEMO_TOURNAMENT]!.model.teams).toHaveLength(16);
      // Same seed, same tables: the three would make the same entries, and only one of each lands.
      await Promise.all(
        ledgers.map(async (ledger) => {
          for (let i = 0; i < 30; i++) await driveTables(ledger, { tournamentId: DEMO_TOURNAMENT, seed: 'race' });
        }),
      );
      const report = await ledgers[0]!.store.verifyChain();
      expect(report.ok).toBe(true);
      // A card played twice or out of turn would not fold: the rebuild goes through, and equals each process's models.
      const rebuilt = JSON.parse(JSON.stringify(await foldPostgresModels(ledgers[0]!.store)));
      for (const ledger of ledgers) {
        await ledger.syncTo(report.head.position);
        expect(JSON.parse(JSON.stringify(ledger.models))).toEqual(rebuilt);
      }
      const registered = await ledgers[0]!.store.kysely
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('type', '=', 'TeamRegistered')
        .executeTakeFirstOrThrow();
      expect(Number(registered.n)).toBe(16);
    } finally {
      await Promise.all(ledgers.map((ledger) => ledger.close()));
    }
  }, 90_000);

  it('lets commands sent at once from one process share commits, each on a stream still committing decided again after it', async () => {
    const ledger = await openPostgresLedger({ url: await newDatabase() });
    try {
      // twelve tournaments created at once, each on a stream of its own
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => ledger.append((m) => createTournament(m, { tournamentId: `t${i}`, name: `Cup ${i}`, format: 'unc-intramural' }))),
      );
      const stats = ledger.store.commitStats();
      expect(stats.appends).toBe(12);
      expect(stats.transactions).toBeLessThan(12);
      // eight teams registered at once in one tournament: each decided from the models holding the
      // ones before it, so none is refused as decided from a version gone by
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          ledger.append((m) => registerTeam(m, { tournamentId: 't0', teamId: `team${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] })),
        ),
      );
      expect(ledger.models.tournaments.t0!.model.teams.map((t) => t.teamId).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `team${i}`).sort());
      expect(ledger.store.commitStats().appends).toBe(20);
      expect(JSON.parse(JSON.stringify(ledger.models))).toEqual(JSON.parse(JSON.stringify(await foldPostgresModels(ledger.store))));
      expect(await ledger.store.verifyChain()).toMatchObject({ ok: true, count: ledger.models.position });
    } finally {
      await ledger.close();
    }
  }, 60_000);

  it('decides again each command another process beat to its stream: forty registrations split between two processes all land, none refused', async () => {
    const url = await newDatabase();
    const [a, b] = await Promise.all([openPostgresLedger({ url }), openPostgresLedger({ url })]);
    try {
      await a.append((m) => createTournament(m, { tournamentId: 'cup', name: 'Cup', format: 'unc-intramural' }));
      await b.syncTo(a.models.position);
      // Twenty each, all on the tournament's one stream, sent at once from both.
      const register = (ledger: PostgresLedger, i: number) =>
        ledger.append((m) => registerTeam(m, { tournamentId: 'cup', teamId: `team${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
      const answers = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => register(i % 2 === 0 ? a : b, i)));
      expect(answers.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      await Promise.all([a, b].map((ledger) => ledger.syncTo(Number.MAX_SAFE_INTEGER)));
      for (const ledger of [a, b]) expect(ledger.models.tournaments.cup!.model.teams).toHaveLength(40);
      // The race was real: each lost some and decided them again.
      const lost = a.commitStats().decidedAgain + b.commitStats().decidedAgain;
      expect(lost).toBeGreaterThan(0);
      expect(await a.store.verifyChain()).toMatchObject({ ok: true, count: 41 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);

  it('answers the ledger-wide reads from the database on the reader’s worker, as the file’s reader does', async () => {
    const url = await newDatabase();
    const ledger = await openPostgresLedger({ url });
    const { app, broadcaster } = createApp({ ledger, auth: createAuth({ ledger, storage: await postgresAuthStorage(ledger.store.kysely) }) });
    try {
      await createDemo(ledger);
      for (let i = 0; i < 30; i++) await driveTables(ledger, { tournamentId: DEMO_TOURNAMENT, seed: 'reads' });
      const head = await ledger.store.head();

      const exported = await app.request('/api/ledger.ndjson');
      expect(exported.status).toBe(200);
      expect(exported.headers.get('x-ledger-digest')).toBe(formatDigest(head));
      let lines = '';
      for await (const line of exportPostgresLedger(ledger.store)) lines += line;
      expect(await exported.text()).toBe(lines);

      const verify = await app.request('/verify');
      expect(verify.status).toBe(200);
      expect(await verify.text()).toContain(head.hash);
      const noted = await app.request(`/verify?digest=${formatDigest({ position: 5, hash: (await ledger.store.readAll({ after: 4, limit: 1 }))[0]!.hash })}`);
      expect(noted.status).toBe(200);
      expect((await app.request('/verify?digest=not-a-digest')).status).toBe(400);

      // As of a past position: what a fold stopped there gives, not today's standings.
      const middle = Math.floor(head.position / 2);
      const past = await app.request(`/tournaments/${DEMO_TOURNAMENT}/standings.csv?position=${middle}`);
      expect(past.status).toBe(200);
      expect(past.headers.get('x-ledger-position')).toBe(String(middle));
      const folded = emptyModels();
      for (const event of await ledger.store.readAll({ limit: middle })) applyEvent(folded, projected(event));
      expect(await past.text()).toBe(standingsCsv(rankedTeams(folded.tournaments[DEMO_TOURNAMENT]!.model)));
      const now = await app.request(`/tournaments/${DEMO_TOURNAMENT}/standings.csv?position=${head.position}`);
      expect(await now.text()).toBe(await (await app.request(`/tournaments/${DEMO_TOURNAMENT}/standings.csv`)).text());
    } finally {
      broadcaster.close();
      await ledger.close();
    }
  }, 60_000);

  it('gives the demo lease to one holder at a time, and to another once the holder stops renewing it', async () => {
    const url = await newDatabase();
    const ledger = await openPostgresLedger({ url });
    try {
      const first = lease(ledger.store, 'demo-bots', 'first', 300);
      const second = lease(ledger.store, 'demo-bots', 'second', 300);
      const [a, b] = await Promise.all([first(), second()]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      const [holder, other] = a ? [first, second] : [second, first];
      expect(await holder()).toBe(true);
      expect(await other()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await other()).toBe(true);
      expect(await holder()).toBe(false);
    } finally {
      await ledger.close();
    }
  }, 30_000);
  it('starts from the read models stored beside the events, folding only what came after, and refuses a changed snapshot', async () => {
    const url = await newDatabase();
    const closing: string[] = [];
    const a = await openPostgresLedger({ url, snapshotEvery: 50, onNotice: (line) => closing.push(line) });
    await createDemo(a);
    for (let i = 0; i < 30; i++) await driveTables(a, { tournamentId: DEMO_TOURNAMENT, seed: 'snap' });
    await a.snapshot();
    const stored = a.models.position;
    // Two more entries after the snapshot.
    for (let i = 0; i < 2; i++) await driveTables(a, { tournamentId: DEMO_TOURNAMENT, seed: 'snap' });
    const head = a.models.position;
    const live = JSON.parse(JSON.stringify(a.models));
    await a.store.kysely.deleteFrom('read_models' as never).execute();
    await a.snapshot();
    await a.close();
    // Closed again by whoever else held it: nothing more to do, and nothing to report.
    await a.close();
    expect(closing).toEqual([]);
    // The snapshot a close stores stands at the head: a fresh process folds nothing.
    const progress: number[] = [];
    const b = await openPostgresLedger({ url, onProgress: (done) => progress.push(done) });
    expect(progress).toEqual([]);
    expect(JSON.parse(JSON.stringify(b.models))).toEqual(live);
    expect(head).toBeGreaterThan(stored);
    expect((await b.verify()).ok).toBe(true);
    // Bytes changed after they were written: refused with the reason, and folded again from the ledger.
    await b.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`UPDATE read_models SET state = replace(state, '"position":', '"position": ')`);
    await client.end();
    const notices: string[] = [];
    const c = await openPostgresLedger({ url, onNotice: (line) => notices.push(line) });
    expect(notices.join('\n')).toMatch(/does not match its digest/);
    expect(JSON.parse(JSON.stringify(c.models))).toEqual(live);
    // `spades verify` folds the chain again up to the snapshot: the one stored on close holds exactly that.
    await c.close();
    const d = await openPostgresLedger({ url });
    expect(await checkPgSnapshots(d.store)).toEqual([{ name: MODELS_VERSION, position: head, inUse: true, ok: true }]);
    // One rewritten with its digest recomputed, as whoever can write the database could: the fold tells.
    await d.close();
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    await writer.query(`UPDATE read_models SET state = replace(state, '"name":"Pitt Boss Spades (demo)"', '"name":"Renamed"')`);
    await writer.query(`UPDATE read_models SET digest = encode(sha256(convert_to(state, 'UTF8')), 'hex')`);
    await writer.end();
    const e = await openPostgresLedger({ url, onNotice: () => {} });
    const [report] = await checkPgSnapshots(e.store);
    expect(report).toMatchObject({ ok: false });
    expect(report!.difference).toMatch(/Pitt Boss Spades \(demo\)/);
    await e.close();
  }, 60_000);
});
