/**
 * The circuit's pages and the director's commands for it. Public: a series' page, its CSV and
 * its embed; every player; a player's page across events. Directors: a series created, an
 * event joining or leaving one, players merged, split and unmerged, and an event's entrants
 * copied from an earlier one (previewed, then recorded on confirmation).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { own } from '../../events/lookup.ts';
import { playerRecord } from '../../events/player-record.ts';
import type { ReadModels } from '../../events/projections.ts';
import { seriesStandings } from '../../events/series-standings.ts';
import type { Decision, ServedLedger } from '../../events/store/served-ledger.ts';
import { csvText } from '../http/csv-text.ts';
import { type Auth, signedBy } from '../auth/auth.ts';
import { newCodeSeed } from '../auth/table-codes.ts';
import { CommandError } from '../commands/command-error.ts';
import { refusalOf, wantsJson } from '../http/refusals.ts';
import { readInput, slug } from '../http/request-input.ts';
import { NotFoundPage } from '../../views/not-found.tsx';
import { PlayerPage, PlayersPage } from '../../views/player-page.tsx';
import { SeriesPage } from '../../views/series-page.tsx';
import { CircuitDesk, CopyPreviewPage } from '../../views/circuit-desk.tsx';
import { createSeries, joinSeries, leaveSeries, mergePlayers, splitPlayer, unmergePlayer } from '../commands/circuit-commands.ts';
import { playerList, seriesLinks } from '../api/circuit-resources.ts';
import { previewCopy, registerCopy } from '../commands/entrant-copy.ts';

const page = (c: Context, node: unknown, status: 200 | 400 | 404 | 409 = 200) => c.html(String(node), status);

const notFound = (c: Context, message: string) => page(c, NotFoundPage({ message, path: c.req.path }), 404);

/** A series' standings as CSV (RFC 4180): the players, then the partnerships. */
export function seriesCsv(models: ReadModels, seriesId: string): string | null {
  const standings = seriesStandings(models, seriesId);
  if (!standings) return null;
  const lines = [['standing', 'place', 'player_id', 'name', 'events', 'points', 'best_finish', 'tiebreak'].join(',')];
  for (const row of standings.players) {
    lines.push(
      [
        'player',
        String(row.place),
        csvText(row.playerId),
        csvText(row.name),
        String(row.events),
        String(row.points),
        row.best === null ? '' : String(row.best),
        csvText(row.tiebreak ?? ''),
      ].join(','),
    );
  }
  for (const row of standings.partnerships) {
    const ids = row.players.map((p) => p.playerId).join(' & ');
    const names = row.players.map((p) => p.name).join(' & ');
    lines.push(
      [
        'partnership',
        String(row.place),
        csvText(ids),
        csvText(names),
        String(row.events),
        String(row.points),
        row.best === null ? '' : String(row.best),
        csvText(row.tiebreak ?? ''),
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The public pages of the circuit, answered from the ledger's models as they stand. */
export function circuitPages(ledger: ServedLedger) {
  const models = ledger.models;
  const app = new Hono();
  const noSeries = (id: string) => `There is no series '${id}'.`;
  app.get('/series/:seriesId', (c) => {
    const seriesId = c.req.param('seriesId');
    const standings = seriesStandings(models, seriesId);
    if (!standings) return notFound(c, noSeries(seriesId));
    return page(c, SeriesPage({ standings, links: seriesLinks(seriesId) }));
  });
  app.get('/series/:seriesId/standings.csv', (c) => {
    const seriesId = c.req.param('seriesId');
    const csv = seriesCsv(models, seriesId);
    if (csv === null) return notFound(c, noSeries(seriesId));
    return c.body(csv, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${seriesId.replace(/[^A-Za-z0-9._-]/g, '_')}-standings.csv"`,
    });
  });
  app.get('/embed/series/:seriesId', (c) => {
    const seriesId = c.req.param('seriesId');
    const standings = seriesStandings(models, seriesId);
    if (!standings) return page(c, SeriesMissingEmbed({ message: noSeries(seriesId) }), 404);
    return page(c, SeriesPage({ standings, links: seriesLinks(seriesId), embed: true }));
  });
  app.get('/players', (c) => page(c, PlayersPage({ players: playerList(models).players })));
  app.get('/players/:playerId', (c) => {
    const playerId = c.req.param('playerId');
    const record = playerRecord(models, playerId);
    if (!record) return notFound(c, `There is no player '${playerId}'.`);
    // A merged record's address leads to the person it was merged into.
    if (record.playerId !== playerId) return c.redirect(`/players/${encodeURIComponent(record.playerId)}`, 301);
    const eventNames = Object.fromEntries(Object.values(models.tournaments).map((t) => [t.model.tournamentId, t.model.name]));
    return page(c, PlayerPage({ record, eventNames }));
  });
  return app;
}

function SeriesMissingEmbed({ message }: { message: string }) {
  return NotFoundPage({ message });
}

export interface CircuitDirectorOptions {
  ledger: ServedLedger;
  auth: Auth;
  now?: () => string;
}

/** The points table as a form sends it: JSON, or `1: 10, 2: 7, played: 1`. */
function pointsInput(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new CommandError('points is not readable: write it as 1: 10, 2: 7, played: 1');
    }
  }
  const table: Record<string, string> = {};
  for (const part of text.split(/[,;\n]+/)) {
    if (!part.trim()) continue;
    const m = /^\s*([^:=]+?)\s*[:=]\s*(\S+)\s*$/.exec(part);
    if (!m) throw new CommandError(`points is written as place: points, such as 1: 10, 2: 7, played: 1, not '${part.trim().slice(0, 24)}'`);
    table[m[1]!.toLowerCase()] = m[2]!;
  }
  return table;
}

const textOf = (value: unknown, what: string): string => {
  if (value === undefined || value === null || value === '') throw new CommandError(`${what} is missing`);
  if (typeof value !== 'string') throw new CommandError(`${what} must be text`);
  return value;
};

const listOf = (value: unknown, what: string): string[] => {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  if (typeof value === 'string') return value.split(/[,\s]+/).filter(Boolean);
  throw new CommandError(`${what} must be a list of event ids`);
};

const yes = (value: unknown) => value === true || value === 'yes' || value === 'true' || value === 'on';

/** The director's circuit commands, to mount at /director beside the desk. */
export function circuitDirectorRoutes(options: CircuitDirectorOptions) {
  const { ledger, auth } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const models = ledger.models;
  const app = new Hono();
  for (const path of [
    '/players',
    '/players/*',
    '/series',
    '/series/*',
    '/tournaments/:tournamentId/series',
    '/tournaments/:tournamentId/series/*',
    '/tournaments/:tournamentId/entrants/*',
  ]) {
    app.use(path, auth.guard(['director']));
  }

  const desk = (c: Context, notice: { error?: string; done?: string } = {}, status: 200 | 400 | 404 | 409 = 200) => {
    const session = auth.current(c)!;
    return page(c, CircuitDesk({ csrf: session.csrf, name: session.name, models, ...notice }), status);
  };

  /**
   * Decides from the models at the head and appends, decided again if another process wins the
   * stream first; answers JSON to API clients, and the desk page (or `back`) to a form.
   */
  const command = async (c: Context, decide: (input: Record<string, unknown>) => { decision: Decision; done: string }, back?: string) => {
    const json = wantsJson(c);
    try {
      const input = await readInput(c);
      let done = '';
      const results = await ledger.append(
        () => {
          const made = decide(input);
          done = made.done;
          return [made.decision];
        },
        { meta: signedBy(auth.current(c)) },
      );
      const position = results.at(-1)?.positions.at(-1) ?? null;
      if (json) return c.json({ done, position });
      if (back) return c.redirect(back, 303);
      return desk(c, { done });
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      if (json) return c.json({ error: refusal.message }, refusal.status);
      return desk(c, { error: refusal.message }, refusal.status as 400);
    }
  };

  app.get('/players', (c) => desk(c));
  app.get('/series', (c) => desk(c));

  app.post('/series', (c) =>
    command(c, (input) => {
      const seriesId = textOf(input.seriesId, 'the series’ short name for its address');
      const decision = createSeries(models, { seriesId, name: textOf(input.name, 'the series name'), points: pointsInput(input.points) });
      return { decision, done: `Created the series ${String(decision.events[0]!.payload.name)}.` };
    }),
  );
  const join = (c: Context, tournamentOf: (input: Record<string, unknown>) => string) =>
    command(c, (input) => {
      const tournamentId = tournamentOf(input);
      const decision = joinSeries(models, { tournamentId, seriesId: textOf(input.seriesId, 'the series to count toward') });
      return {
        decision,
        done: `${models.tournaments[tournamentId]!.model.name} counts toward ${models.circuit.series[decision.events[0]!.payload.seriesId as string]!.name} from now on.`,
      };
    });
  app.post('/tournaments/:tournamentId/series', (c) => join(c, () => c.req.param('tournamentId')!));
  app.post('/series/join', (c) => join(c, (input) => textOf(input.tournamentId, 'the event')));
  app.post('/tournaments/:tournamentId/series/leave', (c) =>
    command(c, () => {
      const tournamentId = c.req.param('tournamentId');
      const decision = leaveSeries(models, { tournamentId });
      return {
        decision,
        done: `${models.tournaments[tournamentId]!.model.name} no longer counts toward ${models.circuit.series[decision.events[0]!.payload.seriesId as string]!.name}.`,
      };
    }),
  );
  const merge = (c: Context, idOf: (input: Record<string, unknown>) => string) =>
    command(c, (input) => {
      const playerId = idOf(input);
      const decision = mergePlayers(models, { playerId, into: textOf(input.into, 'the player to merge into') });
      const [from, into] = [own(models.circuit.people, playerId)!, own(models.circuit.people, decision.events[0]!.payload.into as string)!];
      return { decision, done: `${from.name} and ${into.name} are one player now, ${into.name}.` };
    });
  app.post('/players/merge', (c) => merge(c, (input) => textOf(input.playerId, 'the player')));
  app.post('/players/:playerId/merge', (c) => merge(c, () => c.req.param('playerId')!));
  const split = (c: Context, idOf: (input: Record<string, unknown>) => string) =>
    command(c, (input) => {
      const playerId = idOf(input);
      const into = typeof input.into === 'string' && input.into !== '' ? input.into : undefined;
      const name = typeof input.name === 'string' ? input.name : undefined;
      const decision = splitPlayer(models, {
        playerId,
        tournaments: listOf(input.tournaments, 'the events that were someone else'),
        ...(name !== undefined ? { name } : {}),
        ...(into ? { into } : {}),
      });
      const moved = (decision.events[0]!.payload.entries as unknown[]).length;
      return {
        decision,
        done: `${moved} event${moved === 1 ? '' : 's'} of ${own(models.circuit.people, playerId)!.name} now belong to ${String(decision.events[0]!.payload.name)}.`,
      };
    });
  app.post('/players/split', (c) => split(c, (input) => textOf(input.playerId, 'the player')));
  app.post('/players/:playerId/split', (c) => split(c, () => c.req.param('playerId')!));
  app.post('/players/:playerId/unmerge', (c) =>
    command(c, () => {
      const decision = unmergePlayer(models, { playerId: c.req.param('playerId') });
      return { decision, done: `${String(decision.events[0]!.payload.name)} has their own record again.` };
    }),
  );

  // "Register the same entrants as …": a preview first; `confirm: 'yes'` records it in one decision.
  app.post('/tournaments/:tournamentId/entrants/copy', async (c) => {
    const tournamentId = c.req.param('tournamentId');
    const json = wantsJson(c);
    const session = auth.current(c)!;
    try {
      const input = await readInput(c);
      const from = textOf(input.from, 'the earlier event whose entrants to register');
      const preview = previewCopy(models, { tournamentId, from, idOf: slug, today: now() });
      const answer = (p: typeof preview) => ({
        tournamentId,
        from: p.from,
        entrants: p.bulk.entrants,
        already: p.bulk.already,
        playing: p.playing,
        problems: p.bulk.problems,
      });
      if (!yes(input.confirm)) {
        if (json) return c.json({ ...answer(preview), recorded: 0 });
        return page(c, CopyPreviewPage({ csrf: session.csrf, tournamentId, tournamentName: models.tournaments[tournamentId]!.model.name, preview }));
      }
      let recorded = preview;
      const results = await ledger.append(
        () => {
          recorded = previewCopy(models, { tournamentId, from, idOf: slug, today: now() });
          const decision = registerCopy(models, recorded, newCodeSeed);
          return decision ? [decision] : [];
        },
        { meta: signedBy(session) },
      );
      const position = results.at(-1)?.positions.at(-1) ?? null;
      const count = recorded.bulk.entrants.length;
      const done =
        count === 0
          ? `Everyone from ${recorded.from.name} is already registered; nothing was recorded.`
          : `Registered ${count} entrant${count === 1 ? '' : 's'} from ${recorded.from.name} in one decision.`;
      if (json) return c.json({ ...answer(recorded), recorded: count, position, done });
      return c.redirect(`/director/tournaments/${encodeURIComponent(tournamentId)}`, 303);
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      if (json) return c.json({ error: refusal.message }, refusal.status);
      return desk(c, { error: refusal.message }, refusal.status as 400);
    }
  });
  return app;
}
