/**
 * The auditors' routes: any hand replayed card by card from the ledger, a tournament as it stood
 * at any past position or time, the chain's verification, the ledger and the standings as
 * files, and a game played on paper entered from its `spades-game/1` record. Everything here
 * reads the ledger except the import, which appends the record's events like any other command.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { AppendRefusedError } from '../../events/store/append.ts';
import { InvalidPayloadError } from '../../events/event-registry.ts';
import { DigestFormatError, formatDigest } from '../../events/hash-chain.ts';
import type { ServedLedger } from '../../events/store/served-ledger.ts';
import { BusyError, type ExportTarget, type HeavyReadGate, type HeavyReads, createHeavyReadGate, createHeavyReads } from './heavy-reads.ts';
import type { PastView } from './past-views.tsx';
import { standingsCsv } from './standings-csv.ts';
import { statsCsv } from './stats-csv.ts';
import { personLookup } from '../../events/player-identity.ts';
import { tournamentStats } from '../../events/tournament-stats.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { framedExport } from './export-pages.ts';
import { exportHeader, exportSummary, exportTrailer } from '../../events/store/ledger-file.ts';
import { type ImportTarget, RecordImportError } from '../../events/record-import.ts';
import { checkedRecordImport } from '../commands/replay-check.ts';
import { gameStream } from '../../events/streams.ts';
import { echoed, readJson } from '../http/request-input.ts';
import { refusalOf } from '../http/refusals.ts';
import { clientAddress } from '../http/client-address.ts';
import { Layout } from '../../views/layout.tsx';
import { handReplay, stepCount } from '../../events/hand-replay.ts';
import { ReplayPage } from '../../views/replay.tsx';
import { rulingConsequences } from '../../events/reopening.ts';
import { VerifyPage } from '../../views/verify.tsx';
import { gameById, teamNames, tournamentById } from '../../events/lookup.ts';
import { rankedTeams } from '../../events/standings.ts';
import { replayLink, tournamentLinks } from '../../events/addresses.ts';

export interface AuditOptions {
  /** The time recorded when an imported record says time was called; default the system clock. */
  now?: () => string;
  /** The heavy reads and their gate, shared with the read API's `?asOf=`; made here when not given. */
  reads?: HeavyReads;
  gate?: HeavyReadGate;
  /** Who an import is signed by (the signed-in judge or director), as ledger meta; the import alone when not given. */
  signedBy?: (c: Context) => Record<string, unknown>;
}

/** A refusal as a page: the sentence saying what was wrong, with its status. */
function refusePage(c: Context, status: 400 | 404, sentence: string) {
  return c.html(
    String(
      <Layout title="Not shown">
        <p class="notice notice--review">{sentence}</p>
      </Layout>,
    ),
    status,
  );
}

/** The auditors' routes over one ledger, to mount at the root of the app. */
export function auditApp(ledger: ServedLedger, options: AuditOptions = {}) {
  const now = options.now ?? (() => new Date().toISOString());
  const app = new Hono();

  app.get('/games/:gameId/hands/:hand/replay', async (c) => {
    const gameId = c.req.param('gameId');
    const game = gameById(ledger.models, gameId);
    if (!game) return refusePage(c, 404, `game ${gameId} does not exist`);
    const handText = c.req.param('hand');
    const hands = game.hands.length + (game.current ? 1 : 0);
    if (!/^\d+$/.test(handText) || Number(handText) < 1)
      return refusePage(c, 400, `game ${gameId}: hand must be a hand number from 1, not '${echoed(handText)}'`);
    const tournament = game.tournamentId ? tournamentById(ledger.models, game.tournamentId)?.model : undefined;
    const names = teamNames(tournament);
    const replay = handReplay(game, Number(handText), await ledger.readStream(gameStream(gameId)), names);
    if (!replay) return refusePage(c, 404, `game ${gameId} has no hand ${handText}; it has ${hands} ${hands === 1 ? 'hand' : 'hands'} so far`);
    // What each ruling in the hand undid beyond it, for the last step to say.
    if (game.tournamentId) {
      for (const claim of replay.claims) {
        for (const ref of [claim.ruling?.ref, claim.ruling?.withdrawn?.ref]) {
          const said = ref ? rulingConsequences(ledger.models, game.tournamentId, ref.position) : null;
          if (ref && said) (replay.consequences ??= {})[ref.position] = said;
        }
      }
    }
    const last = stepCount(replay) - 1;
    const stepText = c.req.query('step') ?? '0';
    if (!/^\d+$/.test(stepText) || Number(stepText) > last) {
      return refusePage(c, 400, `game ${gameId} hand ${replay.hand}: step must be a whole number from 0 to ${last}, not '${echoed(stepText)}'`);
    }
    const gameLink = game.tournamentId ? tournamentLinks(game.tournamentId).game(gameId) : `/games/${encodeURIComponent(gameId)}`;
    return c.html(String(<ReplayPage replay={replay} step={Number(stepText)} gameLink={gameLink} />));
  });

  const reads = options.reads ?? createHeavyReads(ledger);
  const gate = options.gate ?? createHeavyReadGate();
  /** Runs a ledger-wide read through the gate; a refusal is a 429 with its sentence. */
  const heavy = async (c: Context, work: () => Promise<Response>): Promise<Response> => {
    try {
      return await gate(clientAddress(c), work);
    } catch (error) {
      if (error instanceof BusyError) return c.json({ error: error.message }, 429, { 'retry-after': '2' });
      throw error;
    }
  };
  const askedPosition = (positionText: string | undefined, atText: string | undefined) => readAsOf(ledger, reads, positionText, atText, Date.parse(now()));

  app.get('/tournaments/:tournamentId/as-of', (c) => {
    const tournamentId = c.req.param('tournamentId');
    const state = tournamentById(ledger.models, tournamentId);
    if (!state) return refusePage(c, 404, `tournament ${tournamentId} does not exist`);
    return heavy(c, async () => {
      const asked = await askedPosition(c.req.query('position'), c.req.query('at'));
      if ('error' in asked) return refusePage(c, 400, `tournament ${tournamentId}: ${asked.error}`);
      const head = (await ledger.head()).position;
      // Folded and rendered on the reader's thread: only the page's text comes back.
      const view: PastView = { kind: 'as-of', head, gamesToWin: state.format.gamesToWin, ...(asked.askedAt ? { askedAt: asked.askedAt } : {}) };
      return c.html((await reads.pastView(tournamentId, asked.position, view)).body);
    });
  });

  /**
   * A tournament's CSV file as it stands (built on this thread from the models it holds: a
   * bracket's worth of rows, whatever the ledger's length), or at a past position or time
   * (folded and built on the reader's thread).
   */
  const csvFile = (name: string, now: (state: TournamentState) => string, past: PastView) => async (c: Context) => {
    const tournamentId = c.req.param('tournamentId') ?? '';
    const state = tournamentById(ledger.models, tournamentId);
    if (!state) return c.json({ error: `tournament ${tournamentId} does not exist` }, 404);
    const asked = c.req.query('position') !== undefined || c.req.query('at') !== undefined;
    const answer = (csv: string, position: number) => {
      const suffix = asked ? `-at-${position}` : '';
      return c.body(csv, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${tournamentId.replace(/[^A-Za-z0-9._-]/g, '_')}-${name}${suffix}.csv"`,
        'x-ledger-position': String(position),
      });
    };
    if (!asked) return answer(now(state), ledger.models.position);
    return heavy(c, async () => {
      const at = await askedPosition(c.req.query('position'), c.req.query('at'));
      if ('error' in at) return c.json({ error: `tournament ${tournamentId}: ${at.error}` }, 400);
      const { position, body } = await reads.pastView(tournamentId, at.position, past);
      return answer(body, position);
    });
  };
  // Ranked as the leaderboard ranks them.
  app.get(
    '/tournaments/:tournamentId/standings.csv',
    csvFile('standings', (state) => standingsCsv(rankedTeams(state.model), state.model.league), { kind: 'standings' }),
  );
  app.get(
    '/tournaments/:tournamentId/stats.csv',
    csvFile('stats', (state) => statsCsv(tournamentStats(state, ledger.models.position, personLookup(ledger.models.circuit, state.model.tournamentId))), {
      kind: 'stats-csv',
    }),
  );

  app.get('/verify', (c) =>
    heavy(c, async () => {
      const { report, stored, events } = await reads.check();
      const props = { report, stored, events };
      const digest = c.req.query('digest');
      if (digest === undefined || digest.trim() === '') return c.html(String(<VerifyPage {...props} />));
      try {
        const result = await reads.digest(report, digest);
        return c.html(String(<VerifyPage {...props} check={{ digest, result }} />));
      } catch (error) {
        if (!(error instanceof DigestFormatError)) throw error;
        return c.html(String(<VerifyPage {...props} check={{ digest, error: error.message }} />), 400);
      }
    }),
  );

  app.get('/api/ledger.ndjson', async (c) => {
    // Streamed a page at a time up to the head as the download starts, so the digest header
    // matches the lines, memory stays bounded, and other requests run between pages. The header
    // and trailer lines name that head, so a download cut short is told from a whole one.
    const head = await ledger.head();
    // Under the real server the pages go straight into its response (heavy-reads.ts).
    const out = (c.env as { outgoing?: ExportTarget } | undefined)?.outgoing;
    const summary = exportSummary(head);
    const pages = reads.exportStream(head.position, out && 'headersSent' in out ? out : undefined);
    return c.body(framedExport(pages, exportHeader(summary), exportTrailer(summary)), 200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': 'attachment; filename="ledger.ndjson"',
      'x-ledger-digest': formatDigest(head),
    });
  });

  // Changes the ledger: mounted plainly here, and wrapped by the app's checks on who may change it.
  app.post('/api/games/import', async (c) => {
    let body: unknown;
    try {
      body = await readJson(
        c,
        'the request body must be JSON: { "record": {...}, "tournamentId": "...", "matchId": "..." } or { "record": {...}, "gameId": "..." }',
      );
    } catch (error) {
      return c.json({ error: (error as Error).message }, 400);
    }
    const target = importTarget(body);
    if ('error' in target) return c.json({ error: target.error }, 400);
    try {
      let decision!: ReturnType<typeof checkedRecordImport>;
      const [result] = await ledger.append(
        (models) => (decision = checkedRecordImport(models, (body as { record: unknown }).record, target.target, now())),
        // Signed by the judge or director who entered it, and marked as entered from a paper record.
        { meta: options.signedBy ? { ...options.signedBy(c), via: 'record-import' } : { by: 'record-import' } },
      );
      const gameId = (decision.events[0]!.payload as { gameId: string }).gameId;
      const positions = result!.positions;
      return c.json(
        {
          gameId,
          events: positions.length,
          positions: { first: positions[0], last: positions[positions.length - 1] },
          digest: formatDigest(await ledger.head()),
          links: { game: `/games/${encodeURIComponent(gameId)}`, record: `/games/${encodeURIComponent(gameId)}/record`, replay: replayLink(gameId, 1) },
        },
        201,
      );
    } catch (error) {
      if (error instanceof RecordImportError) return c.json({ error: error.message }, error.status);
      if (error instanceof InvalidPayloadError || error instanceof AppendRefusedError)
        return c.json({ error: `the record cannot be entered: ${error.message}` }, 400);
      // Anything else refused (a busy or unwritable ledger) in the same words as every route.
      const refusal = refusalOf(error);
      if (refusal) return c.json({ error: refusal.message }, refusal.status);
      throw error;
    }
  });

  return app;
}

/** Reads the import request's target: a tournament's match, or a game id of its own. */
function importTarget(body: unknown): { target: ImportTarget } | { error: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { error: 'the request body must be a JSON object with a "record"' };
  const b = body as Record<string, unknown>;
  if (b.record === undefined) return { error: 'the request body has no "record": put the spades-game/1 record there' };
  const text = (key: string) => (typeof b[key] === 'string' && (b[key] as string) !== '' ? (b[key] as string) : undefined);
  for (const key of ['tournamentId', 'matchId', 'gameId']) {
    if (b[key] !== undefined && text(key) === undefined) return { error: `${key} must be a non-empty string, not ${JSON.stringify(b[key])}` };
  }
  const gameId = text('gameId');
  if (b.matchId !== undefined || b.tournamentId !== undefined) {
    const tournamentId = text('tournamentId');
    const matchId = text('matchId');
    if (!tournamentId || !matchId) return { error: 'a record entered into a match needs both "tournamentId" and "matchId"' };
    return { target: { tournamentId, matchId, ...(gameId ? { gameId } : {}) } };
  }
  if (!gameId) return { error: 'give "tournamentId" and "matchId" to enter the record into a match, or a "gameId" for a game of its own' };
  const teams = b.teams;
  if (teams === undefined) return { target: { gameId } };
  const t = teams as Record<string, unknown>;
  if (typeof teams !== 'object' || teams === null || typeof t.NS !== 'string' || typeof t.EW !== 'string' || !t.NS || !t.EW) {
    return { error: 'teams must name both teams: { "NS": "...", "EW": "..." }' };
  }
  return { target: { gameId, teams: { NS: t.NS, EW: t.EW } } };
}

type AsOf = { position: number; askedAt?: string } | { error: string };

/**
 * The position an as-of read asks for: given, or the last event appended at or before a time.
 * The tournament there is folded afresh by the projections' own fold on the reader's thread (and
 * kept for the positions asked for last), so the answer is the rebuild stopped there, not a guess
 * from today's models.
 */
async function readAsOf(ledger: ServedLedger, reads: HeavyReads, positionText: string | undefined, atText: string | undefined, nowMs: number): Promise<AsOf> {
  const head = ledger.models.position;
  if (positionText !== undefined && atText !== undefined) return { error: 'give a position or a time (at), not both' };
  if (atText !== undefined) {
    const ms = momentOf(atText, nowMs);
    if (Number.isNaN(ms))
      return { error: `at must be a time such as 2026-01-01T10:00:00Z, or a time of day such as 12:37 (today, by the venue's clock), not '${echoed(atText)}'` };
    return { position: Math.min(await reads.positionAt(ms), head), askedAt: new Date(ms).toISOString() };
  }
  const text = positionText ?? String(head);
  if (!/^\d{1,15}$/.test(text) || Number(text) > head) return { error: `position must be a whole number from 0 to ${head}, not '${echoed(text)}'` };
  return { position: Number(text) };
}

/**
 * The moment an `at` names, in milliseconds, or NaN. A date and time without a zone (as a
 * datetime-local picker sends it) is read as UTC, as the ledger records it. A time of day alone
 * (`12:37`, `12:37:05`) is today's, by the venue's clock (this machine's time zone), and
 * yesterday's when today's is still to come: an auditor asks about what has happened.
 */
function momentOf(text: string, nowMs: number): number {
  const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (clock) {
    const [hours, minutes, seconds] = [Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)];
    if (hours > 23 || minutes > 59 || seconds > 59) return NaN;
    const day = new Date(nowMs);
    day.setHours(hours, minutes, seconds, 0);
    if (day.getTime() > nowMs) day.setDate(day.getDate() - 1);
    return day.getTime();
  }
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(text) ? text : `${text}Z`;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) ? Date.parse(zoned) : NaN;
}
