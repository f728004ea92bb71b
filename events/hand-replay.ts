/**
 * A hand's replay, read from the game projection: the game's stream is folded again through
 * `evolveGame` (the same fold as the live model, its undo included), and the hand is taken from
 * what that fold kept (the deal, the cards of each trick with the positions they were recorded
 * at, the counted tricks, the claims and rulings). The stream itself only says where each entry
 * sits in the chain (its position and hash). Facts only: views/replay.tsx words them.
 */
import { type Seat, type Team, SEATS, parseCard } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { scoreRecord } from '../engine/record.ts';
import { resolveRules } from '../engine/rules.ts';
import { type Violation, replayPlays } from '../engine/trick.ts';
import type { BidValue } from './event-catalogue.ts';
import { GAME_EVENT_TYPES, type GameEvent, evolveGame, gameRecord, startGame } from './game-projection.ts';
import type { GameModel, HandInProgress, HandRow, RecordHand } from './read-models.ts';
import type { RecordedEvent } from './store/append.ts';

/** What a ledger entry a step was read from records, for the page to put in words. */
export type EntryFact =
  | { kind: 'dealt'; dealer: Seat; hand: number }
  | { kind: 'bid'; seat: Seat; bid: BidValue }
  | { kind: 'card'; seat: Seat; card: string }
  | { kind: 'misdeal'; reason: string }
  | { kind: 'counted'; tricks: Record<Seat, number> }
  | { kind: 'claim'; seat: Seat; trick: number | null }
  | { kind: 'ruling'; judge: string; upheld: boolean }
  | { kind: 'withdrawal'; judge: string }
  /** An entry taken back at the table. */
  | { kind: 'taken-back' }
  /** The entry that took back the one at `undone`. */
  | { kind: 'undo'; undone: number };

/** A ledger entry a step was read from. */
export interface LedgerRef {
  position: number;
  hash: string;
  type: string;
  fact: EntryFact;
}

export interface ReplayCard {
  seat: Seat;
  card: string;
  ref: LedgerRef;
  renege: boolean;
  illegalLead: boolean;
}

export interface ReplayTrick {
  number: number;
  leader: Seat;
  cards: ReplayCard[];
  /** Null while the trick is still being played. */
  winner: Seat | null;
  /** Tricks each seat has taken once this trick is over. */
  taken: Record<Seat, number>;
}

export interface ReplayClaim {
  seat: Seat;
  trick: number | null;
  ref: LedgerRef;
  ruling: { upheld: boolean; judge: string; note: string; ref: LedgerRef; withdrawn?: { judge: string; reason: string; ref: LedgerRef } } | null;
  /** What the ruling changed in the hand's points; null until the hand is scored with it. */
  effect: Record<Team, number> | null;
}

export interface HandReplay {
  gameId: string;
  hand: number;
  dealer: Seat;
  players: Partial<Record<Seat, string>>;
  teamNames: Record<Team, string>;
  /** The cards as dealt; `inferred` when the deal was not recorded and holdings come from the plays. */
  deal: Record<Seat, string[]> | null;
  inferred: boolean;
  dealRef: LedgerRef;
  bids: { seat: Seat; bid: BidValue; ref: LedgerRef }[];
  misdeal: { reason: string; ref: LedgerRef } | null;
  tricks: ReplayTrick[];
  /** Tricks counted at the end of a hand whose cards were not recorded. */
  counted: { tricks: Record<Seat, number>; ref: LedgerRef } | null;
  claims: ReplayClaim[];
  /** Entries taken back at the table, each with the entry that undid it. */
  takenBack: { entry: LedgerRef; undo: LedgerRef }[];
  /** What the engine found wrong in the recorded plays, when they cannot be replayed (a ledger written by something else). */
  problem: string | null;
  /** The teams' scores before the hand. */
  before: Record<Team, number>;
  /** The hand's score; null while it is being played. */
  row: HandRow | null;
  /** What each ruling in the hand undid beyond it (by the ruling's ledger position): "It reopened Round 1 (match 6)…". */
  consequences?: Record<number, string>;
}

/** How many steps a replay has: the deal and bids, each trick (or the count of tricks). */
export function stepCount(replay: HandReplay): number {
  return 1 + replay.tricks.length + (replay.counted ? 1 : 0);
}

/** A game's stored entry as the game projection reads it. */
interface GameEntry {
  position: number;
  hash: string;
  event: GameEvent;
}

/** The game's entries of its stream: the ledger checked each payload against its type when it was appended. */
function gameEntries(events: readonly RecordedEvent[], gameId: string): GameEntry[] {
  return events
    .filter((e) => GAME_EVENT_TYPES.has(e.type) && (e.payload as { gameId?: unknown }).gameId === gameId)
    .map((e) => ({ position: e.position, hash: e.hash, event: { type: e.type, payload: e.payload, at: e.meta.at } as GameEvent }));
}

/** What folding the game's stream again leaves of one hand. */
interface FoldedHand {
  /** The hand as the projection last held it (its cards and their positions), or null if never dealt. */
  hand: HandInProgress | null;
  /** Positions of the entries the projection took back, each with the entry that did. */
  undone: Map<number, GameEntry>;
}

/**
 * Folds the game's entries through the game projection, noting the hand as it stood whenever it
 * was the one in play, and each undo the projection carried out (it drops the entry from what
 * it keeps since the deal), so which entries stand is the projection's word, not the replay's.
 */
function foldHand(entries: readonly GameEntry[], number: number): FoldedHand | null {
  const first = entries[0];
  if (first?.event.type !== 'GameStarted') return null;
  const game = startGame(first.event.payload);
  let hand: HandInProgress | null = null;
  const undone = new Map<number, GameEntry>();
  for (const entry of entries.slice(1)) {
    const kept = game.recent?.length ?? 0;
    evolveGame(game, entry.event, entry.position);
    if (entry.event.type === 'EntryUndone' && (game.recent?.length ?? 0) < kept) undone.set(entry.event.payload.undone, entry);
    if (game.current?.number === number) hand = game.current;
  }
  return { hand, undone };
}

/**
 * Builds a hand's replay from the game's stream (in position order) and names for its teams.
 * Null when the game has no such hand.
 */
export function handReplay(
  game: GameModel,
  number: number,
  events: readonly RecordedEvent[],
  teamNames: Readonly<Record<string, string>> = {},
): HandReplay | null {
  const entries = gameEntries(events, game.gameId);
  const folded = foldHand(entries, number);
  if (!folded?.hand) return null;
  const { hand, undone } = folded;
  const ref = (entry: GameEntry, fact: EntryFact): LedgerRef => ({ position: entry.position, hash: entry.hash, type: entry.event.type, fact });
  const byPosition = new Map(entries.map((e) => [e.position, e]));
  // The hand's entries that stand, in the order recorded.
  const standing = entries.filter((e) => !undone.has(e.position) && 'hand' in e.event.payload && e.event.payload.hand === number);

  const dealt = standing.find((e) => e.event.type === 'HandDealt')!;
  // Blind bids declared before the deal (Pitt Boss) are recorded on the deal, and said first.
  const declared = dealt.event.type === 'HandDealt' ? Object.entries(dealt.event.payload.blind ?? {}) : [];
  const bids = [
    ...declared.map(([seat, tricks]) => {
      const bid = `blind ${tricks}`;
      return { seat: seat as Seat, bid, ref: ref(dealt, { kind: 'bid', seat: seat as Seat, bid }) };
    }),
    ...standing.flatMap((e) =>
      e.event.type === 'BidMade'
        ? [{ seat: e.event.payload.seat, bid: e.event.payload.bid, ref: ref(e, { kind: 'bid', seat: e.event.payload.seat, bid: e.event.payload.bid }) }]
        : [],
    ),
  ];
  const misdeal =
    standing.flatMap((e) =>
      e.event.type === 'MisdealCalled' ? [{ reason: e.event.payload.reason, ref: ref(e, { kind: 'misdeal', reason: e.event.payload.reason }) }] : [],
    )[0] ?? null;
  const countedEntry = hand.tricks ? standing.find((e) => e.event.type === 'TricksRecorded') : undefined;
  const counted = hand.tricks && countedEntry ? { tricks: hand.tricks, ref: ref(countedEntry, { kind: 'counted', tricks: hand.tricks }) } : null;

  // The cards of each trick as the projection grouped them, each with the entry it came from.
  const played = hand.plays.map((trick, t) =>
    trick.map((card, i) => {
      const entry = byPosition.get(hand.playPositions[t]![i]!)!;
      const seat = entry.event.type === 'CardPlayed' ? entry.event.payload.seat : SEATS[0]!;
      return { seat, card, ref: ref(entry, { kind: 'card', seat, card }) };
    }),
  );
  const record: RecordHand | undefined = game.hands[number - 1];
  const { tricks, problem } = tricksOf(game, hand, played, record?.deal ?? hand.deal);

  let deal: Record<Seat, string[]> | null = record?.deal ?? hand.deal ?? null;
  let inferred = false;
  if (!deal && played.length > 0) {
    // Without a recorded deal, a seat held at the start every card it went on to play.
    deal = { N: [], E: [], S: [], W: [] };
    for (const card of played.flat()) deal[card.seat].push(card.card);
    inferred = true;
  }

  const claims: ReplayClaim[] = game.claims
    .filter((c) => c.hand === number)
    .map((c) => {
      const at = (position: number, fact: EntryFact) => ref(byPosition.get(position)!, fact);
      const r = c.ruling;
      return {
        seat: c.seat,
        trick: c.trick,
        ref: at(c.position, { kind: 'claim', seat: c.seat, trick: c.trick }),
        ruling: r
          ? {
              upheld: r.upheld,
              judge: r.judge,
              note: r.note,
              ref: at(r.position, { kind: 'ruling', judge: r.judge, upheld: r.upheld }),
              ...(r.withdrawn
                ? {
                    withdrawn: {
                      judge: r.withdrawn.judge,
                      reason: r.withdrawn.reason,
                      ref: at(r.withdrawn.position, { kind: 'withdrawal', judge: r.withdrawn.judge }),
                    },
                  }
                : {}),
            }
          : null,
        effect: null,
      };
    });
  const closed = game.hands[number - 1];
  const ruled = claims.filter((c) => c.ruling && !c.ruling.withdrawn);
  if (closed && !closed.misdeal) ruled.forEach((claim, k) => (claim.effect = rulingEffect(game, number, k)));

  // An entry taken back stays in the ledger: the steps show the hand without it, and the last
  // step lists it with its undoing, so no stored entry of the hand goes unaccounted.
  const takenBack = [...undone]
    .filter(([, undo]) => undo.event.type === 'EntryUndone' && undo.event.payload.hand === number)
    .flatMap(([position, undo]) => {
      const entry = byPosition.get(position);
      return entry ? [{ entry: ref(entry, { kind: 'taken-back' }), undo: ref(undo, { kind: 'undo', undone: position }) }] : [];
    });

  const previous = game.rows[number - 2];
  return {
    gameId: game.gameId,
    hand: number,
    dealer: hand.dealer,
    players: game.seats,
    teamNames: { NS: teamNames[game.teams.NS] ?? game.teams.NS, EW: teamNames[game.teams.EW] ?? game.teams.EW },
    deal,
    inferred,
    dealRef: ref(dealt, { kind: 'dealt', dealer: hand.dealer, hand: number }),
    bids,
    misdeal,
    tricks,
    counted,
    claims,
    takenBack,
    problem,
    before: previous ? { NS: previous.NS.score, EW: previous.EW.score } : { NS: game.start?.NS.score ?? 0, EW: game.start?.EW.score ?? 0 },
    row: closed ? (game.rows[number - 1] ?? null) : null,
  };
}

/** Each trick's winner, the running counts, and the reneges and illegal leads the engine finds in the plays. */
function tricksOf(
  game: GameModel,
  hand: HandInProgress,
  played: readonly Omit<ReplayCard, 'renege' | 'illegalLead'>[][],
  dealt: Record<Seat, string[]> | undefined,
): { tricks: ReplayTrick[]; problem: string | null } {
  if (played.length === 0) return { tricks: [], problem: null };
  const deck = deckFor(resolveRules(game.rules).options);
  const cards = played.map((trick) => trick.map((c) => parseCard(c.card) ?? -1));
  const deal = dealt ? (Object.fromEntries(SEATS.map((s) => [s, dealt[s].map((n) => parseCard(n) ?? -1)])) as Record<Seat, number[]>) : undefined;
  try {
    const result = replayPlays(deck, hand.dealer, cards, deal);
    const marked = (list: Violation[], seat: Seat, trick: number) => list.some((v) => v.seat === seat && v.trick === trick);
    const taken: Record<Seat, number> = { N: 0, E: 0, S: 0, W: 0 };
    const tricks = result.tricks.map((trick, t) => {
      const winner = result.winners[t] ?? null;
      if (winner) taken[winner]++;
      return {
        number: t + 1,
        leader: trick.leader,
        winner,
        taken: { ...taken },
        cards: played[t]!.map((c, i) => ({
          ...c,
          renege: marked(result.reneges, c.seat, t + 1),
          illegalLead: i === 0 && marked(result.illegalLeads, c.seat, t + 1),
        })),
      };
    });
    return { tricks, problem: null };
  } catch (error) {
    return { tricks: [], problem: (error as Error).message };
  }
}

/**
 * What the k-th ruling of a hand changed in its points: the hand scored as recorded, less the
 * hand scored without that ruling, through the same scorer as everything else. Only the hands
 * up to this one are scored, so a later hand cannot make the comparison fail.
 */
function rulingEffect(game: GameModel, hand: number, k: number): Record<Team, number> | null {
  const record = structuredClone(gameRecord(game)) as { hands: RecordHand[]; timeCalled?: number };
  record.hands = record.hands.slice(0, hand);
  if (record.timeCalled !== undefined && record.timeCalled > hand) delete record.timeCalled;
  const without = structuredClone(record);
  const reneges = without.hands[hand - 1]!.reneges ?? [];
  reneges.splice(k, 1);
  if (reneges.length === 0) delete without.hands[hand - 1]!.reneges;
  try {
    const a = scoreRecord(record).hands[hand - 1]!;
    const b = scoreRecord(without).hands[hand - 1]!;
    return { NS: a.NS.points - b.NS.points, EW: a.EW.points - b.EW.points };
  } catch {
    return null;
  }
}
