/**
 * A progressive table's round entered from its paper score sheet on the table's phone: the form
 * (`GET /entry/tables/<id>/<table>/sheet`), the sheet checked and shown scored with nothing
 * recorded (a form post without `confirm`), and the round recorded on confirmation (or at once
 * from a JSON request, its own confirmation). The sheet is checked and recorded exactly as
 * `POST /api/games/import` takes it, into the game the round started at the table.
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import type { Context, Hono } from 'hono';
import { SEAT_NAMES, type Seat, SEATS, type Team } from '../../engine/cards.ts';
import { nextDealer } from '../../engine/game.ts';
import { RECORD_FORMAT, scoreRecord } from '../../engine/record.ts';
import { resolveRules } from '../../engine/rules.ts';
import { RecordImportError } from '../../events/record-import.ts';
import type { ServedLedger } from '../../events/store/served-ledger.ts';
import type { GameModel } from '../../events/read-models.ts';
import { gameById, tournamentById } from '../../events/lookup.ts';
import { RoundSheetPage, type SheetPreviewHand, sheetField } from '../../views/round-sheet.tsx';
import type { Auth } from '../auth/auth.ts';
import type { Session } from '../auth/sessions.ts';
import { CommandError } from '../commands/command-error.ts';
import { checkedRecordImport } from '../commands/replay-check.ts';
import { readInput } from '../http/request-input.ts';
import { type RefusalStatus, refuse, refusalOf, wantsJson } from '../http/refusals.ts';
import { runCommand } from '../http/run-command.ts';

export interface RoundSheetRoutesContext {
  ledger: ServedLedger;
  auth: Auth;
  now: () => string;
  /** The table a request names, refused when it does not exist. */
  tableParams: (c: Context) => { tournamentId: string; table: number };
  /** Refuses a scorekeeper another table's page. */
  checkTable: (session: Session, tournamentId: string, table: number | null) => void;
}

const TABLE_ROLES = ['scorekeeper', 'director'] as const;

/** The game of the latest progressive round seated at a table, with its round's match id (`R2-T3`). */
interface SheetTable {
  tournamentId: string;
  table: number;
  matchId: string;
  round: number;
  game: GameModel;
}

/** Whether nothing has been recorded at the game yet: a sheet fills a table only then. */
export function sheetOpen(game: GameModel): boolean {
  return game.hands.length === 0 && !game.current && game.claims.length === 0 && game.corrections.length === 0 && !game.winner;
}

/** Adds the score sheet's routes to the table entry's app. */
export function roundSheetRoutes(app: Hono, context: RoundSheetRoutesContext): void {
  const { ledger, auth, now } = context;
  const models = ledger.models;

  /** The round being played at the table named by the request, or a refusal saying why there is none to enter. */
  function sheetTable(c: Context, session: Session): SheetTable {
    const { tournamentId, table } = context.tableParams(c);
    context.checkTable(session, tournamentId, table);
    const state = tournamentById(models, tournamentId)!;
    if (!seatedAtTables(state.format))
      throw new CommandError(`table ${table} plays matches, not progressive rounds; a match's game played on paper is entered by a judge`, 404);
    // The latest round seated at the table, over or not: a confirmation sent twice finds the round it recorded.
    const match = state.model.matches.filter((m) => m.table === table).at(-1);
    const game = match ? gameById(models, match.games[0] ?? '') : undefined;
    if (!match || !game) throw new CommandError(`table ${table} has no round seated yet; the director seats the next round`, 409);
    return { tournamentId, table, matchId: match.matchId, round: match.round, game };
  }

  /** The record the form's fields make: one hand for each hand filled in, in order. */
  function sheetRecord(input: Record<string, unknown>, game: GameModel): Record<string, unknown> {
    const text = (name: string) => (typeof input[name] === 'string' ? (input[name] as string).trim() : '');
    const hands: Record<string, unknown>[] = [];
    let empty: number | null = null;
    for (let hand = 1; hand <= formHands(game); hand++) {
      const fields = SEATS.flatMap((seat) => [text(sheetField('bid', hand, seat)), text(sheetField('tricks', hand, seat))]);
      if (fields.every((f) => f === '')) {
        empty ??= hand;
        continue;
      }
      if (empty !== null) throw new CommandError(`hand ${empty} is empty but hand ${hand} is filled in; fill the hands in the order they were played`);
      const bids = {} as Record<Seat, number | string>;
      const tricks = {} as Record<Seat, number>;
      for (const seat of SEATS) {
        const bid = text(sheetField('bid', hand, seat)).toLowerCase();
        if (bid === '') throw new CommandError(`hand ${hand}: ${SEAT_NAMES[seat]}’s bid is missing`);
        bids[seat] = /^\d{1,2}$/.test(bid) ? Number(bid) : bid;
        const taken = text(sheetField('tricks', hand, seat));
        if (!/^\d{1,2}$/.test(taken) || Number(taken) > 13) {
          throw new CommandError(
            `hand ${hand}: ${SEAT_NAMES[seat]}’s tricks must be a whole number from 0 to 13, not ${taken === '' ? 'empty' : `'${taken}'`}`,
          );
        }
        tricks[seat] = Number(taken);
      }
      hands.push({ bids, tricks });
    }
    return { format: RECORD_FORMAT, rules: game.rules, hands };
  }

  /** The sheet decided as the import decides it, refused in the table's words. */
  function decide(input: Record<string, unknown>, at: SheetTable) {
    const record = sheetRecord(input, at.game);
    try {
      return { record, decision: checkedRecordImport(models, record, { tournamentId: at.tournamentId, matchId: at.matchId }, now()) };
    } catch (error) {
      if (!(error instanceof RecordImportError)) throw error;
      const words = error.message
        .replace(/^record: /, '')
        .replace(/^hands\[(\d+)\]: /, (_, i: string) => `hand ${Number(i) + 1}: `)
        .replace(/^hands: /, '');
      throw new CommandError(words, error.status === 413 ? 400 : error.status);
    }
  }

  function sheetHtml(
    session: Session,
    at: SheetTable,
    values: Record<string, string>,
    extra: { error?: string; preview?: { hands: SheetPreviewHand[]; result: string } } = {},
  ): string {
    const rules = resolveRules(at.game.rules).options;
    const dealers: Seat[] = [at.game.dealer];
    while (dealers.length < formHands(at.game)) dealers.push(nextDealer(rules, dealers.at(-1)!, null));
    const seats = Object.fromEntries(SEATS.map((s) => [s, at.game.seats[s] ?? s])) as Record<Seat, string>;
    const path = `/entry/tables/${encodeURIComponent(at.tournamentId)}/${at.table}`;
    return String(
      <RoundSheetPage
        csrf={session.csrf}
        tournamentName={tournamentById(models, at.tournamentId)!.model.name}
        table={at.table}
        round={at.round}
        hands={rules.hands ?? 4}
        seats={seats}
        dealers={dealers}
        specialBids={rules.nil !== null ? ['nil'] : []}
        action={`${path}/sheet`}
        tablePage={path}
        values={values}
        {...(extra.error ? { error: extra.error } : {})}
        {...(extra.preview ? { preview: extra.preview } : {})}
      />,
    );
  }

  function page(
    c: Context,
    session: Session,
    at: SheetTable,
    values: Record<string, string>,
    extra: { error?: string; preview?: { hands: SheetPreviewHand[]; result: string } } = {},
    status: RefusalStatus | 200 = 200,
  ) {
    return c.html(sheetHtml(session, at, values, extra), status as 200);
  }

  /** A refusal before there is a sheet to show: JSON, or a short page saying why with the way back. */
  function refused(c: Context, error: unknown) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return refuse(c, refusal.status, refusal.message);
  }

  app.get('/tables/:tournamentId/:table/sheet', auth.guard(TABLE_ROLES), (c) => {
    const session = auth.current(c);
    try {
      const at = sheetTable(c, session);
      if (!sheetOpen(at.game))
        throw new CommandError(
          `round ${at.round} at table ${at.table} already has entries; a score sheet is entered only where nothing has been recorded yet`,
          409,
        );
      return page(c, session, at, {});
    } catch (error) {
      return refused(c, error);
    }
  });

  app.post('/tables/:tournamentId/:table/sheet', auth.guard(TABLE_ROLES), async (c) => {
    const session = auth.current(c);
    let at: SheetTable;
    let input: Record<string, unknown>;
    try {
      at = sheetTable(c, session);
      input = await readInput(c);
    } catch (error) {
      return refused(c, error);
    }
    const values = Object.fromEntries(Object.entries(input).filter(([name, v]) => /^(bid|tricks)-\d-[NESW]$/.test(name) && typeof v === 'string')) as Record<
      string,
      string
    >;
    if (!wantsJson(c) && input.confirm !== 'yes') {
      // Checked and scored as it would be recorded; nothing is recorded until the confirmation.
      try {
        const { record } = decide(input, at);
        return page(c, session, at, values, { preview: previewOf(record, at.game) });
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        return page(c, session, at, values, { error: refusal.message }, refusal.status);
      }
    }
    const where = at;
    return runCommand(c, ledger, session, {
      scope: 'sheet',
      decide: (fields) => {
        const { decision } = decide(fields, where);
        return { decision, done: `Recorded round ${where.round} at table ${where.table} from the score sheet.` };
      },
      fragment: (notice) =>
        String(
          <p class="notice notice--error" role="alert">
            {notice.error ?? notice.done}
          </p>,
        ),
      page: (notice) => sheetHtml(session, where, values, notice.error ? { error: notice.error } : {}),
      redirect: `/entry/tables/${encodeURIComponent(where.tournamentId)}/${where.table}`,
    });
  });
}

/** The form's hands: the round's, and one more for a tie. */
function formHands(game: GameModel): number {
  return (resolveRules(game.rules).options.hands ?? 4) + 1;
}

/** The sheet scored hand by hand, and who won the round, for the confirmation. */
function previewOf(record: Record<string, unknown>, game: GameModel): { hands: SheetPreviewHand[]; result: string } {
  const scored = scoreRecord({ ...record, dealer: game.dealer });
  const hands = record.hands as { bids: Record<Seat, number | string>; tricks: Record<Seat, number> }[];
  const rules = resolveRules(game.rules).options;
  let dealer = game.dealer;
  const rows = hands.map((hand, i): SheetPreviewHand => {
    const line = scored.hands[i]!;
    const row = {
      hand: i + 1,
      dealer,
      bids: Object.fromEntries(SEATS.map((s) => [s, String(hand.bids[s])])) as Record<Seat, string>,
      tricks: hand.tricks,
      points: { NS: line.NS.points, EW: line.EW.points },
      score: { NS: line.NS.score, EW: line.EW.score },
    };
    dealer = nextDealer(rules, dealer, null);
    return row;
  });
  const winner = scored.winner as Team;
  const loser: Team = winner === 'NS' ? 'EW' : 'NS';
  const side = (team: Team) => (team === 'NS' ? `North–South, ${game.seats.N} and ${game.seats.S},` : `East–West, ${game.seats.E} and ${game.seats.W},`);
  return { hands: rows, result: `${side(winner)} win the round ${scored.final[winner]} to ${scored.final[loser]}.` };
}
