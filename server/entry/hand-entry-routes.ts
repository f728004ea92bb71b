/**
 * The entries of a hand at a table: the deal, each bid and card, the tricks taken, taking back
 * the last entry, and the renege and misdeal claims a scorekeeper (or a judge) makes. Each reads
 * its fields, asks a command to decide, and is recorded through the table's `record`, which
 * answers with the table's panel.
 */
import type { Context, Hono } from 'hono';
import { SEAT_NAMES, type Seat, SEATS } from '../../engine/cards.ts';
import { cardText } from '../../engine/card-names.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { GameModel } from '../../events/read-models.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { gameById } from '../../events/lookup.ts';
import type { Auth } from '../auth/auth.ts';
import type { Session } from '../auth/sessions.ts';
import {
  callMisdeal,
  claimRenege,
  dealHand,
  dealerOfNextHand,
  lastEntryLabel,
  makeBid,
  playCard,
  recordTricks,
  undoLastEntry,
} from '../commands/game-commands.ts';
import { field, fields, parseFields } from '../http/request-input.ts';
import { flagOf } from './entry-game.ts';

export const TABLE_ROLES = ['scorekeeper', 'director'] as const;
const CLAIM_ROLES = ['scorekeeper', 'judge', 'director'] as const;

// What each entry sends, its fields in the order they are checked.
const seat = field.text({ max: 5 });
const DealFields = fields({
  shuffle: field
    .optionalText({ max: 10 })
    .transform((shuffle) => shuffle || 'table')
    .refine((shuffle) => shuffle === 'system' || shuffle === 'table', { error: (iss) => `shuffle must be 'system' or 'table', not '${String(iss.input)}'` }),
  dealer: field.optionalText({ max: 5 }),
  // Blind bids declared before the deal, where the rules have them said then.
  blindN: field.optionalWhole({ min: 0, max: 13 }),
  blindE: field.optionalWhole({ min: 0, max: 13 }),
  blindS: field.optionalWhole({ min: 0, max: 13 }),
  blindW: field.optionalWhole({ min: 0, max: 13 }),
});
// A form sends "4"; the command reads numbers as numbers and "nil", "blind 6" as text.
const BidFields = fields({ seat, bid: field.raw().transform((raw) => (typeof raw === 'string' && /^\d{1,2}$/.test(raw.trim()) ? Number(raw) : raw)) });
// Where the tap was made, when the form says: a tap for a moment that has passed is refused.
const PlayFields = fields({
  seat,
  card: field.text({ max: 5 }),
  hand: field.optionalWhole({ min: 1, max: 999 }),
  played: field.optionalWhole({ min: 0, max: 51 }),
});
const tricksTaken = field.whole({ min: 0, max: 13 });
const TricksFields = fields({ N: tricksTaken, E: tricksTaken, S: tricksTaken, W: tricksTaken });
const RenegeFields = fields({ seat, hand: field.optionalWhole({ min: 1, max: 999 }), trick: field.optionalWhole({ min: 1, max: 13 }) });
const MisdealFields = fields({ reason: field.text({ max: 200 }) });

type Place = { tournamentId: string; table: number };
type Decide = (input: Record<string, unknown>, session: Session) => { decision: Decision | Decision[]; done: string };

export interface HandEntryContext {
  models: ReadModels;
  auth: Auth;
  /** The system's shuffle: a fresh seed per deal. */
  newSeed: () => string;
  /** Runs one entry at a table, answering with the table's panel. */
  record: (
    c: Context,
    roles: readonly string[],
    scope: string,
    where: (session: Session) => Place,
    decide: Decide,
    after?: () => string | null,
    refresh?: boolean,
  ) => Promise<Response>;
  /** The table of the game a request names. */
  placeOfGame: (c: Context) => (session: Session) => Place;
  /** The game a request names, refused when it does not exist or is another table's. */
  gameFor: (c: Context, session: Session) => GameModel;
}

/** Adds the hand's entries to the table entry app. */
export function handEntryRoutes(app: Hono, { models, auth, newSeed, record, placeOfGame, gameFor }: HandEntryContext): void {
  app.post('/games/:gameId/deal', auth.guard(TABLE_ROLES), (c) =>
    record(c, TABLE_ROLES, 'deal', placeOfGame(c), (input, session) => {
      const game = gameFor(c, session);
      const { shuffle, dealer, ...fieldsSent } = parseFields(input, DealFields);
      const declared = { N: fieldsSent.blindN, E: fieldsSent.blindE, S: fieldsSent.blindS, W: fieldsSent.blindW };
      const blind = Object.fromEntries(Object.entries(declared).filter(([, n]) => n !== null)) as Partial<Record<Seat, number>>;
      const decision = dealHand(models, {
        gameId: game.gameId,
        ...(shuffle === 'system' ? { seed: newSeed() } : {}),
        ...(dealer ? { dealer } : {}),
        ...(Object.keys(blind).length > 0 ? { blind } : {}),
      });
      const said = Object.entries(blind).map(([seat, n]) => `${SEAT_NAMES[seat as Seat]} blind ${n}`);
      return {
        decision,
        done: `${said.length > 0 ? `Bid before the deal: ${said.join(', ')}. ` : ''}${SEAT_NAMES[dealerOfNextHand(game)]} dealt hand ${game.hands.length + 1}${shuffle === 'system' ? ' from the system’s shuffle' : ''}.`,
      };
    }),
  );

  app.post('/games/:gameId/bid', auth.guard(TABLE_ROLES), (c) =>
    record(c, TABLE_ROLES, 'bid', placeOfGame(c), (input, session) => {
      const game = gameFor(c, session);
      const { seat, bid } = parseFields(input, BidFields);
      return { decision: makeBid(models, { gameId: game.gameId, seat, bid }), done: `${SEAT_NAMES[seat as Seat] ?? seat} bid ${String(bid)}.` };
    }),
  );

  app.post('/games/:gameId/play', auth.guard(TABLE_ROLES), (c) => {
    let played: { seat: Seat; card: string; gameId: string } | null = null;
    return record(
      c,
      TABLE_ROLES,
      'play',
      placeOfGame(c),
      (input, session) => {
        const game = gameFor(c, session);
        const { seat, card, hand, played: before } = parseFields(input, PlayFields);
        const expect = { ...(hand !== null ? { hand } : {}), ...(before !== null ? { played: before } : {}) };
        const decision = playCard(models, { gameId: game.gameId, seat, card, expect });
        const name = (decision.events[0]!.payload as { card: string }).card;
        played = { seat: seat as Seat, card: name, gameId: game.gameId };
        return { decision, done: `${SEAT_NAMES[seat as Seat]} played ${cardText(name)}.` };
      },
      () => (played ? flagOf(gameById(models, played.gameId)!, played.seat, played.card) : null),
    );
  });

  app.post('/games/:gameId/tricks', auth.guard(TABLE_ROLES), (c) =>
    record(c, TABLE_ROLES, 'tricks', placeOfGame(c), (input, session) => {
      const game = gameFor(c, session);
      const tricks = parseFields(input, TricksFields);
      return {
        decision: recordTricks(models, { gameId: game.gameId, tricks }),
        done: `Recorded the tricks: ${SEATS.map((s) => `${s} ${String(tricks[s])}`).join(', ')}.`,
      };
    }),
  );

  app.post('/games/:gameId/undo', auth.guard(TABLE_ROLES), (c) =>
    record(c, TABLE_ROLES, 'undo', placeOfGame(c), (_input, session) => {
      const game = gameFor(c, session);
      const label = lastEntryLabel(game);
      return { decision: undoLastEntry(models, { gameId: game.gameId }), done: `Took back ${label ?? 'the last entry'}.` };
    }),
  );

  app.post('/games/:gameId/claims/renege', auth.guard(CLAIM_ROLES), (c) =>
    record(c, CLAIM_ROLES, 'renege', placeOfGame(c), (input, session) => {
      const game = gameFor(c, session);
      const { seat, hand, trick } = parseFields(input, RenegeFields);
      const claimId = `${game.gameId}-c${game.claims.length + 1}`;
      const decision = claimRenege(models, { gameId: game.gameId, claimId, seat, ...(hand !== null ? { hand } : {}), trick });
      return { decision, done: `Renege claimed against ${seat}${trick !== null ? ` at trick ${trick}` : ''}; a judge will rule.` };
    }),
  );

  app.post('/games/:gameId/claims/misdeal', auth.guard(CLAIM_ROLES), (c) =>
    record(c, CLAIM_ROLES, 'misdeal', placeOfGame(c), (input, session) => {
      const game = gameFor(c, session);
      const { reason } = parseFields(input, MisdealFields);
      return { decision: callMisdeal(models, { gameId: game.gameId, reason }), done: `Misdeal (${reason}); deal the hand again.` };
    }),
  );
}
