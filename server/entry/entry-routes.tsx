/**
 * Table entry: what a table's scorekeeper (or the director) records, one tap per entry. Each
 * route reads the fields, asks a command in commands/ to decide, appends with the form's
 * command id, and answers with the panel the next tap needs: JSON for API clients, the panel
 * for htmx, a redirect for a plain form. A refusal answers the same way with the sentence.
 * What the panel shows of a game is worked out in entry-game.ts; the entries of a hand (deal,
 * bid, card, tricks, take-back, claims) are in hand-entry-routes.ts.
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Decision, ServedLedger } from '../../events/store/served-ledger.ts';
import type { GameModel } from '../../events/read-models.ts';
import { Layout } from '../../views/layout.tsx';
import { type EntryPanelProps, EntryPanel } from '../../views/entry-table.tsx';
import { TableView } from '../../views/table.tsx';
import { NotFoundPage } from '../../views/not-found.tsx';
import type { Auth } from '../auth/auth.ts';
import { AccessError, refuse, refusalOf, wantsJson } from '../http/refusals.ts';
import { field, fields, parseFields } from '../http/request-input.ts';
import type { Session } from '../auth/sessions.ts';
import { tableOfGame } from '../auth/table-codes.ts';
import { runCommand } from '../http/run-command.ts';
import { CommandError } from '../commands/command-error.ts';
import { carriedFirstDealer, startMatch, startNextGame } from '../commands/match-commands.ts';
import { gameById, teamNames, tournamentById } from '../../events/lookup.ts';
import { entryGame, eveningAtTable, phoneWords, roundAtTable } from './entry-game.ts';
import { firstDealerWords, seatingInfo, seatingInput } from '../http/seating-input.ts';
import { roundSheetRoutes, sheetOpen } from './round-sheet-routes.tsx';
import { TABLE_ROLES, handEntryRoutes } from './hand-entry-routes.ts';
import { readyTables as tablesForReady } from '../../events/table-assignment.ts';
import { gameInPlay } from '../../events/reopening.ts';

// What each entry sends, its fields in the order they are checked.
const StartFields = fields({ matchId: field.text({ max: 120 }) });

export interface EntryRoutesOptions {
  ledger: ServedLedger;
  auth: Auth;
  /** The system's shuffle: a fresh seed per deal. */
  newSeed?: () => string;
  /** ISO time for match clocks. */
  now?: () => string;
}

export function entryRoutes(options: EntryRoutesOptions) {
  const { ledger, auth } = options;
  const newSeed = options.newSeed ?? (() => randomBytes(12).toString('base64url'));
  const now = options.now ?? (() => new Date().toISOString());
  const models = ledger.models;
  const app = new Hono();

  /** A scorekeeper may touch only their own table; directors and judges any. */
  function checkTable(session: Session, tournamentId: string, table: number | null): void {
    if (session.role !== 'scorekeeper') return;
    if (session.tournamentId !== tournamentId || session.table !== table) {
      const where = table === null ? 'a game not seated at a table' : `table ${table}`;
      throw new AccessError(`you keep score at table ${session.table}; ${where} is another table’s to record`, 403);
    }
  }

  function gameFor(c: Context, session: Session): GameModel {
    const gameId = c.req.param('gameId')!;
    const game = gameById(models, gameId);
    if (!game) throw new CommandError(`game ${gameId} does not exist`, 404);
    checkTable(session, game.tournamentId ?? '', tableOfGame(models, game));
    return game;
  }

  function tableParams(c: Context): { tournamentId: string; table: number } {
    const tournamentId = c.req.param('tournamentId')!;
    const text = c.req.param('table')!;
    if (!tournamentById(models, tournamentId)) throw new CommandError(`tournament ${tournamentId} does not exist`, 404);
    if (!/^\d{1,3}$/.test(text) || Number(text) < 1) throw new CommandError(`table must be a table number, not '${text}'`, 404);
    return { tournamentId, table: Number(text) };
  }

  /**
   * The table each ready match is to be started at from a table's phone: the ready matches in
   * the bracket's order go to the free tables in number order (the first to the lowest-numbered
   * table not playing a match, and so on), as the director's seating page would seat them. A
   * table's phone sees and starts only its own; the director seats any match at any table.
   */
  function readyTables(tournamentId: string): Map<string, number> {
    return tablesForReady(tournamentById(models, tournamentId)!.model.matches);
  }

  /** The panel's props for a table: the game in play there, or the matches that may start. */
  function panelProps(session: Session, tournamentId: string, table: number, notice: { error?: string; done?: string } = {}): EntryPanelProps {
    const state = tournamentById(models, tournamentId)!;
    const tournament = state.model;
    const one = (teamId: string | null) => tournament.teams.find((t) => t.teamId === teamId)?.name ?? teamId ?? '—';
    // A progressive table's side is a pair of players for the round, `a+b`.
    const name = (teamId: string | null) => (teamId?.includes('+') ? teamId.split('+').map(one).join(' & ') : one(teamId));
    const here = tournament.matches.find((m) => m.status === 'live' && m.table === table);
    const tableRound = seatedAtTables(state.format) ? roundAtTable(tournament, table) : undefined;
    const shown = here ?? tableRound;
    // The game a ruling reopened is played on before the match's later ones.
    const lastGameId = (shown ? gameInPlay(shown, models.games)?.gameId : undefined) ?? shown?.games[shown.games.length - 1];
    const game = lastGameId ? (gameById(models, lastGameId) ?? null) : null;
    const start: EntryPanelProps['start'] = [];
    if (here && (!game || game.winner)) start.push({ matchId: here.matchId, label: here.label, teams: [name(here.teams[0]), name(here.teams[1])], next: true });
    if (!here) {
      const tables = readyTables(tournamentId);
      for (const m of tournament.matches.filter((x) => x.status === 'ready' && (session.role === 'director' || tables.get(x.matchId) === table))) {
        start.push({
          matchId: m.matchId,
          label: m.label,
          teams: [name(m.teams[0]), name(m.teams[1])],
          next: false,
          firstDealer: seatingInfo(state, m, carriedFirstDealer(models, tournamentId, m.matchId)).firstDealer,
        });
      }
    }
    return {
      csrf: session.csrf,
      tournamentId,
      tournamentName: tournament.name,
      table,
      start,
      game: game ? entryGame(game, name) : null,
      // A progressive round not yet begun at the table may be entered whole from its score sheet.
      sheet: seatedAtTables(state.format) && game && sheetOpen(game) ? `/entry/tables/${encodeURIComponent(tournamentId)}/${table}/sheet` : null,
      evening: tableRound ? eveningAtTable(state, tableRound.round, game) : null,
      error: notice.error ? phoneWords(notice.error) : null,
      done: notice.done ?? null,
      at: models.position,
    };
  }

  function pageHtml(props: EntryPanelProps): string {
    const game = props.game ? gameById(models, props.game.gameId) : undefined;
    const names = teamNames(tournamentById(models, props.tournamentId)?.model);
    // With no game in play (none here, or the last one over) the page follows its tournament, so
    // a match the director seats here reaches the phone without a tap (static/outbox.js fetches
    // the panel on each message, and loads the page whole when it follows another stream).
    const live = {
      url:
        game && !game.winner
          ? `/games/${encodeURIComponent(game.gameId)}/stream?after=${models.position}`
          : `/tournaments/${encodeURIComponent(props.tournamentId)}/stream?after=${models.position}`,
    };
    return String(
      <Layout title={`Table ${props.table} · entry`} live={live} signedIn={`Table ${props.table} scorekeeper`} scripts={['/static/outbox.js']}>
        <EntryPanel {...props} />
        {game ? <TableView game={game} teamNames={names} round={props.evening?.round ?? null} /> : null}
      </Layout>,
    );
  }

  /** Runs one entry at a table, answering with the table's panel. */
  async function record(
    c: Context,
    roles: readonly string[],
    scope: string,
    where: (session: Session) => { tournamentId: string; table: number },
    decide: (input: Record<string, unknown>, session: Session) => { decision: Decision | Decision[]; done: string },
    after?: () => string | null,
    refresh = false,
  ) {
    const session = auth.current(c);
    let place: { tournamentId: string; table: number };
    try {
      if (!roles.includes(session.role)) throw new AccessError(`this is for ${roles.join(' or ')}`, 403);
      place = where(session);
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      return refuse(c, refusal.status, refusal.message);
    }
    const props = (notice: { error?: string; done?: string }) => panelProps(session, place.tournamentId, place.table, notice);
    return runCommand(c, ledger, session, {
      scope,
      decide,
      ...(after ? { after } : {}),
      refresh,
      fragment: (notice) => String(<EntryPanel {...props(notice)} />),
      page: (notice) => pageHtml(props(notice)),
      redirect: `/entry/tables/${encodeURIComponent(place.tournamentId)}/${place.table}`,
    });
  }

  const placeOfGame = (c: Context) => (session: Session) => {
    const game = gameFor(c, session);
    return { tournamentId: game.tournamentId ?? '', table: tableOfGame(models, game) ?? 0 };
  };

  // ---- pages ----

  app.get('/', auth.guard(TABLE_ROLES), (c) => {
    const session = auth.current(c);
    if (session.role === 'director') return c.redirect('/director', 303);
    return c.redirect(`/entry/tables/${encodeURIComponent(session.tournamentId!)}/${session.table}`, 303);
  });

  app.get('/tables/:tournamentId/:table', auth.guard(TABLE_ROLES), (c) => {
    const session = auth.current(c);
    try {
      const { tournamentId, table } = tableParams(c);
      checkTable(session, tournamentId, table);
      return c.html(pageHtml(panelProps(session, tournamentId, table)));
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      if (wantsJson(c)) return c.json({ error: refusal.message }, refusal.status);
      // A table that does not exist is a page that does not exist; any other refusal says why.
      if (refusal.status === 404)
        return c.html(String(NotFoundPage({ message: `${refusal.message[0]!.toUpperCase()}${refusal.message.slice(1)}.`, path: c.req.path })), 404);
      return refuse(c, refusal.status, refusal.message);
    }
  });

  // ---- entries ----

  app.post('/tables/:tournamentId/:table/start', auth.guard(TABLE_ROLES), (c) =>
    record(
      c,
      TABLE_ROLES,
      'start',
      (session) => {
        const place = tableParams(c);
        checkTable(session, place.tournamentId, place.table);
        return place;
      },
      (input, session) => {
        const { tournamentId, table } = tableParams(c);
        const { matchId } = parseFields(input, StartFields);
        const match = tournamentById(models, tournamentId)!.model.matches.find((m) => m.matchId === matchId);
        if (match?.status === 'live') {
          if (match.table !== table) throw new CommandError(`match ${matchId} is being played at table ${match.table}, not table ${table}`, 409);
          return { decision: startNextGame(models, { tournamentId, matchId, at: now() }), done: `Started game ${match.games.length + 1} of ${match.label}.` };
        }
        const seating = seatingInput(input);
        // The table records the rulebook's draw or toss; naming a dealer outright or setting a
        // clock is the director's, from the seating page.
        if (session.role !== 'director' && seating.namedBecause !== undefined)
          throw new CommandError(
            `match ${matchId}: only the director names a first dealer without the draw or toss; record the draw or toss made at the table`,
            403,
          );
        if (session.role !== 'director' && seating.clockMinutes !== undefined)
          throw new CommandError(`match ${matchId}: only the director sets a time limit, when seating the match`, 403);
        const busy = tournamentById(models, tournamentId)!.model.matches.find((m) => m.status === 'live' && m.table === table);
        if (busy) throw new CommandError(`table ${table} is playing ${busy.label}; it cannot start ${matchId} until that match is over`, 409);
        const itsTable = match?.status === 'ready' ? readyTables(tournamentId).get(match.matchId) : undefined;
        if (session.role !== 'director' && match && itsTable !== undefined && itsTable !== table) {
          throw new CommandError(
            `${match.label} is to be started at table ${itsTable}, not table ${table}: the ready matches go to the free tables in order, and only the director seats a match elsewhere`,
            403,
          );
        }
        const decision = startMatch(models, { tournamentId, matchId, table, at: now(), ...seating });
        const teamName = (id: string) => tournamentById(models, tournamentId)!.model.teams.find((t) => t.teamId === id)?.name ?? id;
        const dealer = firstDealerWords(decision[0]!.events[0]!.payload.firstDealer as Record<string, unknown> | undefined, teamName);
        return { decision, done: `Started ${match?.label ?? matchId} at table ${table}; ${dealer}.` };
      },
      undefined,
      true,
    ),
  );

  handEntryRoutes(app, { models, auth, newSeed, record, placeOfGame, gameFor });
  roundSheetRoutes(app, { ledger, auth, now, tableParams, checkTable });

  return app;
}
