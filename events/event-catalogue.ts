/**
 * The domain's events: everything that happens at a Spades tournament, in the past tense.
 * Payloads hold plain JSON (seats as letters, cards as record names such as "10H", bids as in
 * the game record: 5, "nil", "blind nil", "blind 6") so the ledger reads the same to an
 * auditor as to the engine.
 */
import { SEATS, type Seat, type Team } from '../engine/cards.ts';
import type { FormatId, FormatOptions } from '../engine/formats.ts';
import { type Check, type EventDefinition, check, defineEvent, eventRegistry } from './event-registry.ts';
import { CIRCUIT_EVENTS } from './player-events.ts';

export type { FormatId };
export type BidValue = number | string;
export type RulesValue = string | ({ preset: string } & Record<string, unknown>);

type Payload<D> = D extends EventDefinition<string, infer P> ? P : never;

const id = check.text({ min: 1, max: 120 });
const seat = check.oneOf(SEATS);
const team = check.oneOf(['NS', 'EW'] as const);
const iso = check.text({ pattern: /^\d{4}-\d{2}-\d{2}T/ });
const cardName = check.text({ min: 2, max: 3 });
const bid: Check<BidValue> = check.either<number, string>(check.integer({ min: 0, max: 13 }), check.text({ min: 3, max: 10 }));
const rules: Check<RulesValue> = check.either<string, RulesValue>(check.text({ min: 1 }), check.anyObject() as Check<RulesValue>);
const bySeat = <T>(c: Check<T>) => check.record(seat, c) as Check<Partial<Record<Seat, T>>>;
const fullySeated = <T>(c: Check<T>): Check<Record<Seat, T>> =>
  bySeat(c)
    .superRefine((value, ctx) => {
      const missing = SEATS.filter((s) => value[s] === undefined);
      if (missing.length > 0) ctx.addIssue({ code: 'custom', message: `needs every seat; missing ${missing.join(', ')}` });
    })
    // What the refinement checks, said to JSON Schema readers too.
    .meta({ required: [...SEATS] }) as unknown as Check<Record<Seat, T>>;
const day = check.optional(check.text({ pattern: /^\d{4}-\d{2}-\d{2}$/ }));
/**
 * The random value an entrant's check-in code is made from with the server's secret (as table
 * codes are): recorded, so the code stays the same on every process, and useless without the
 * secret, so the public ledger gives no code away. Absent for an entrant a director registered
 * before sign-up existed; its code is made from the ids alone.
 */
const codeSeed = check.optional(check.text({ min: 16, max: 64 }));
/**
 * The person each player is across events, where the registration named them by their id (a
 * paste's `#ana-lopez-2`) rather than leaving it to the name; null where the name decides.
 */
const people = check.optional(check.array(check.nullable(id), { min: 1, max: 2 }));
const teamStart = check.object({ score: check.integer(), bags: check.integer({ min: 0 }), sets: check.integer({ min: 0 }) });

/**
 * Pitt Boss as its rulebook was first read here: a blind bid made at the bidder's turn, and the
 * deal passing after every misdeal. It is now read as declaring blind bids before the deal and
 * passing the deal only for a card flipped in it (docs/spec/rules.md); an event or game recorded
 * as version 1 keeps the reading it was played under, so it folds, replays and imports as played.
 */
function pittBossAsFirstRead(rules: unknown): unknown {
  const first = { blindBidDeclared: 'in-turn', afterMisdeal: 'next-dealer' };
  if (rules === 'pitt-boss') return { preset: 'pitt-boss', ...first };
  if (rules !== null && typeof rules === 'object' && (rules as { preset?: unknown }).preset === 'pitt-boss') return { ...first, ...rules };
  return rules;
}

export const TournamentCreated = defineEvent({
  type: 'TournamentCreated',
  version: 2,
  validate: check.object({
    tournamentId: id,
    name: check.text({ min: 1, max: 200 }),
    format: check.oneOf(['blp-2024', 'unc-intramural', 'pitt-boss', 'asher-theatre', 'tournament-spades', 'custom'] as const),
    options: check.anyObject() as unknown as Check<FormatOptions>,
  }),
  upcasters: {
    // Version 1 Pitt Boss events keep the reading they were played under.
    1: (payload: { options: Record<string, unknown> }) => {
      const options = { ...payload.options };
      for (const key of ['rules', 'firstRoundRules', 'finalRules']) if (options[key] !== undefined) options[key] = pittBossAsFirstRead(options[key]);
      return { ...payload, options };
    },
  },
});
export const TeamRegistered = defineEvent({
  type: 'TeamRegistered',
  version: 1,
  validate: check.object({
    tournamentId: id,
    teamId: id,
    name: check.text({ min: 1, max: 120 }),
    players: check.array(check.text({ min: 1, max: 120 }), { min: 1, max: 2 }),
    fee: check.nullable(check.number()),
    /** The day the registration came in (YYYY-MM-DD), which decides an early or late fee. */
    registeredOn: check.optional(check.text({ pattern: /^\d{4}-\d{2}-\d{2}$/ })),
    codeSeed,
    people,
  }),
});
export const TeamWithdrawn = defineEvent({
  type: 'TeamWithdrawn',
  version: 1,
  validate: check.object({ tournamentId: id, teamId: id }),
});
export const TournamentStarted = defineEvent({
  type: 'TournamentStarted',
  version: 1,
  validate: check.object({
    tournamentId: id,
    seeds: check.array(id, { min: 2, max: 64 }),
    seeding: check.object({ method: check.oneOf(['manual', 'random'] as const), seed: check.optional(check.text()) }),
    byeDraw: check.optional(check.array(check.record(id, cardName))),
  }),
});
export const TeamDisqualified = defineEvent({
  type: 'TeamDisqualified',
  version: 1,
  validate: check.object({
    tournamentId: id,
    teamId: id,
    reason: check.text({ min: 1, max: 500 }),
    /** Why the team's remaining matches are forfeited; a disqualification when absent. */
    kind: check.optional(check.oneOf(['disqualified', 'no-show', 'forfeit'] as const)),
  }),
});
export const MatchStarted = defineEvent({
  type: 'MatchStarted',
  version: 1,
  validate: check.object({
    tournamentId: id,
    matchId: id,
    teams: check.array(id, { min: 2, max: 2 }),
    table: check.integer({ min: 1 }),
    /** How the first dealer was chosen, as drawn or tossed at the table (engine/formats.ts `FirstDealerDraw`). */
    firstDealer: check.optional(check.anyObject()),
    /** The time limit set when the match was seated: minutes (null for none) on the whole match or on each game. */
    clock: check.optional(check.object({ per: check.oneOf(['match', 'game'] as const), minutes: check.nullable(check.integer({ min: 1, max: 600 })) })),
  }),
});
export const ClockStarted = defineEvent({
  type: 'ClockStarted',
  version: 1,
  validate: check.object({
    tournamentId: id,
    matchId: id,
    at: iso,
    minutes: check.integer({ min: 1, max: 600 }),
    /** The game this clock times, when each game has its own (asher); absent for a match clock. */
    gameId: check.optional(id),
  }),
});
export const TimeCalled = defineEvent({
  type: 'TimeCalled',
  version: 1,
  validate: check.object({ tournamentId: id, matchId: id, gameId: id, at: iso, hand: check.integer({ min: 1 }) }),
});
export const GameStarted = defineEvent({
  type: 'GameStarted',
  version: 2,
  // Version 1 Pitt Boss games keep the reading they were played under.
  upcasters: { 1: (payload: { rules: unknown }) => ({ ...payload, rules: pittBossAsFirstRead(payload.rules) }) },
  validate: check.object({
    gameId: id,
    matchId: check.nullable(id),
    tournamentId: check.nullable(id),
    number: check.integer({ min: 1 }),
    rules,
    teams: check.object({ NS: id, EW: id }),
    seats: bySeat(check.text({ min: 1, max: 120 })),
    dealer: seat,
    start: check.optional(check.object({ NS: teamStart, EW: teamStart })),
  }),
});
export const HandDealt = defineEvent({
  type: 'HandDealt',
  version: 1,
  validate: check.object({
    gameId: id,
    hand: check.integer({ min: 1 }),
    dealer: seat,
    seed: check.optional(check.text({ min: 1, max: 200 })),
    deal: check.optional(fullySeated(check.array(cardName, { min: 13, max: 13 }))),
    /** Blind bids a team declared before the cards were dealt, where the rules have them said then: tricks by seat. */
    blind: check.optional(bySeat(check.integer({ min: 0, max: 13 }))),
  }),
});
export const BidMade = defineEvent({
  type: 'BidMade',
  version: 1,
  validate: check.object({ gameId: id, hand: check.integer({ min: 1 }), seat, bid }),
});
export const CardPlayed = defineEvent({
  type: 'CardPlayed',
  version: 1,
  validate: check.object({ gameId: id, hand: check.integer({ min: 1 }), seat, card: cardName }),
});
export const TricksRecorded = defineEvent({
  type: 'TricksRecorded',
  version: 1,
  validate: check.object({
    gameId: id,
    hand: check.integer({ min: 1 }),
    tricks: fullySeated(check.integer({ min: 0, max: 13 })),
    firstSeven: check.optional(team),
  }),
});
export const MisdealCalled = defineEvent({
  type: 'MisdealCalled',
  version: 1,
  validate: check.object({ gameId: id, hand: check.integer({ min: 1 }), reason: check.text({ min: 1, max: 200 }) }),
});
export const RenegeClaimed = defineEvent({
  type: 'RenegeClaimed',
  version: 1,
  validate: check.object({
    gameId: id,
    claimId: id,
    hand: check.integer({ min: 1 }),
    seat,
    trick: check.nullable(check.integer({ min: 1, max: 13 })),
  }),
});
export const RulingGiven = defineEvent({
  type: 'RulingGiven',
  version: 1,
  validate: check.object({
    gameId: id,
    claimId: id,
    upheld: check.boolean(),
    note: check.text({ max: 1000 }),
    judge: check.text({ min: 1, max: 120 }),
  }),
});
export const ScoreCorrected = defineEvent({
  type: 'ScoreCorrected',
  version: 1,
  validate: check.object({
    gameId: id,
    points: check.object({ NS: check.integer(), EW: check.integer() }),
    reason: check.text({ min: 1, max: 500 }),
    judge: check.text({ min: 1, max: 120 }),
  }),
});

/**
 * A judge's earlier ruling withdrawn: a renege ruling (`claimId`) or a score correction
 * (`correction`, the ledger position of its ScoreCorrected). Both stay in the ledger; from here
 * on the withdrawn one has no effect on the score, and the claim stays settled.
 */
export const RulingWithdrawn = defineEvent({
  type: 'RulingWithdrawn',
  version: 1,
  validate: check
    .object({
      gameId: id,
      claimId: check.optional(id),
      correction: check.optional(check.integer({ min: 1 })),
      reason: check.text({ min: 1, max: 500 }),
      judge: check.text({ min: 1, max: 120 }),
    })
    .superRefine((value, ctx) => {
      if ((value.claimId === undefined) === (value.correction === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'names exactly one ruling: a claimId or a correction' });
      }
    }),
});

/**
 * A scorekeeper's last entry taken back: the entry stays in the ledger and this event undoes
 * it, so the record of what was tapped and what was withdrawn is kept whole.
 */
export const EntryUndone = defineEvent({
  type: 'EntryUndone',
  version: 1,
  validate: check.object({
    gameId: id,
    hand: check.integer({ min: 1 }),
    /** The ledger position of the entry taken back. */
    undone: check.integer({ min: 1 }),
    entry: check.oneOf(['BidMade', 'CardPlayed', 'TricksRecorded', 'MisdealCalled'] as const),
  }),
});

export const TeamCheckedIn = defineEvent({
  type: 'TeamCheckedIn',
  version: 1,
  validate: check.object({
    tournamentId: id,
    teamId: id,
    at: iso,
    /** Who checked the entrant in: `team` for the entrant itself with its code, else the director's name. */
    by: check.optional(check.text({ min: 1, max: 140 })),
  }),
});
export const PlayerRegistered = defineEvent({
  type: 'PlayerRegistered',
  version: 1,
  validate: check.object({
    tournamentId: id,
    playerId: id,
    name: check.text({ min: 1, max: 120 }),
    gender: check.optional(check.oneOf(['male', 'female'] as const)),
    fee: check.nullable(check.number()),
    registeredOn: day,
    codeSeed,
    people,
  }),
});
/**
 * Public sign-up opened (or its terms changed): within `cap` entrants are registered at once,
 * past it waitlisted; from `closes` on it takes nobody. Null for no cap or no closing time.
 */
export const SignUpOpened = defineEvent({
  type: 'SignUpOpened',
  version: 1,
  validate: check.object({ tournamentId: id, cap: check.nullable(check.integer({ min: 2, max: 512 })), closes: check.nullable(iso) }),
});
/** Public sign-up closed by a director; the waitlist stays, in order. */
export const SignUpClosed = defineEvent({
  type: 'SignUpClosed',
  version: 1,
  validate: check.object({ tournamentId: id }),
});
/** A team (or a progressive player) signed up past the cap: waitlisted, in the order of these events. */
export const TeamWaitlisted = defineEvent({
  type: 'TeamWaitlisted',
  version: 1,
  validate: check.object({
    tournamentId: id,
    teamId: id,
    name: check.text({ min: 1, max: 120 }),
    players: check.array(check.text({ min: 1, max: 120 }), { min: 1, max: 2 }),
    gender: check.optional(check.oneOf(['male', 'female'] as const)),
    fee: check.nullable(check.number()),
    registeredOn: day,
    codeSeed,
    people,
  }),
});
/** The first waitlisted entrant takes a place freed before the start: registered from here on. */
export const WaitlistPromoted = defineEvent({
  type: 'WaitlistPromoted',
  version: 1,
  validate: check.object({ tournamentId: id, teamId: id }),
});
/** An entrant's fee paid (all of what was still owed), as the director took it. */
export const FeePaid = defineEvent({
  type: 'FeePaid',
  version: 1,
  validate: check.object({ tournamentId: id, teamId: id, amount: check.number() }),
});
/** A fee payment recorded by mistake taken back, as the director undid it: the entrant owes `amount` again. */
export const FeePaymentUndone = defineEvent({
  type: 'FeePaymentUndone',
  version: 1,
  validate: check.object({ tournamentId: id, teamId: id, amount: check.number() }),
});
/** A check-in recorded by mistake taken back before the start, as the director undid it. */
export const CheckInUndone = defineEvent({
  type: 'CheckInUndone',
  version: 1,
  validate: check.object({ tournamentId: id, teamId: id }),
});
export const GameResultCorrected = defineEvent({
  type: 'GameResultCorrected',
  version: 1,
  validate: check.object({
    tournamentId: id,
    matchId: id,
    gameId: id,
    /** The team id the judge rules won the game. */
    winner: id,
    reason: check.text({ min: 1, max: 500 }),
    judge: check.text({ min: 1, max: 120 }),
  }),
});
const progressiveTable = check.object({ table: check.integer({ min: 1 }), seats: fullySeated(id) });
export const ProgressiveRoundStarted = defineEvent({
  type: 'ProgressiveRoundStarted',
  version: 1,
  validate: check.object({
    tournamentId: id,
    round: check.integer({ min: 1 }),
    seating: check.array(progressiveTable, { min: 2, max: 16 }),
    /** Players resting this round when the count is not a multiple of 4 (absent when nobody rests). */
    sittingOut: check.optional(check.array(id, { max: 3 })),
  }),
});
/** A director changed a progressive event's number of rounds (until its last round starts). */
export const ProgressiveRoundsChanged = defineEvent({
  type: 'ProgressiveRoundsChanged',
  version: 1,
  validate: check.object({ tournamentId: id, rounds: check.integer({ min: 1, max: 99 }) }),
});

/**
 * A later round of a bracket drawn round by round (blp-2024, engine/bracket-rounds.ts): each odd
 * group's bye draw (the teams that drew, the cards by team with any redraws, the bye and its
 * card, the bye's match) and the round's matches, each slot the winner or loser of an earlier
 * match or a bye; or a later Swiss round, paired from the standings, each slot a team or a bye
 * (no draws); or the playoff of pools into a playoff, seeded from the pools' standings, its
 * opening matches and its seeds (`playoff`). `seed` when the system drew the cards.
 */
const roundSlot = check.either(
  check.either(check.object({ kind: check.oneOf(['winner', 'loser'] as const), match: id }), check.object({ kind: check.oneOf(['bye'] as const) })),
  // A Swiss round pairs the teams themselves, from the standings (engine/swiss.ts).
  check.object({ kind: check.oneOf(['team'] as const), team: id, seed: check.integer({ min: 1, max: 64 }) }),
);
/**
 * Partners drawn for a team structure whose players registered alone (engine/partner-draw.ts):
 * the players checked in, the seed, and what the player left over by an odd count does; the
 * teams the draw made from them, each with the name it plays under. Drawn again from `players`,
 * `seed` and `odd`, it makes the same teams, so the ledger proves the draw.
 */
export const PartnersDrawn = defineEvent({
  type: 'PartnersDrawn',
  version: 1,
  validate: check.object({
    tournamentId: id,
    seed: check.text({ min: 1, max: 200 }),
    odd: check.oneOf(['twice', 'sit-out'] as const),
    players: check.array(id, { min: 4, max: 512 }),
    teams: check.array(check.object({ teamId: id, name: check.text({ min: 1, max: 250 }), players: check.array(id, { min: 2, max: 2 }) }), {
      min: 2,
      max: 256,
    }),
    sittingOut: check.nullable(id),
    twice: check.nullable(id),
  }),
});
export const BracketRoundDrawn = defineEvent({
  type: 'BracketRoundDrawn',
  version: 1,
  validate: check.object({
    tournamentId: id,
    round: check.integer({ min: 2, max: 200 }),
    draws: check.array(
      check.object({
        group: check.oneOf(['winners', 'losers'] as const),
        teams: check.array(id, { min: 1, max: 64 }),
        cards: check.array(check.record(id, cardName)),
        bye: id,
        card: check.nullable(cardName),
        match: id,
      }),
      { max: 2 },
    ),
    matches: check.array(check.object({ id, side: check.oneOf(['winners', 'losers', 'final'] as const), slots: check.array(roundSlot, { min: 2, max: 2 }) }), {
      min: 1,
      max: 64,
    }),
    seed: check.optional(check.text({ max: 200 })),
    // Pools into a playoff: the playoff's seeds, from which its whole bracket is built (engine/pools.ts).
    playoff: check.optional(check.array(id, { min: 2, max: 64 })),
  }),
});

/**
 * The director's choice of the tournament the venue's `/screen` address shows. A TV left on
 * `/screen` keeps showing it when another tournament is created, until a director pins another.
 */
export const ScreenPinned = defineEvent({
  type: 'ScreenPinned',
  version: 1,
  validate: check.object({ tournamentId: id }),
});

export type TournamentCreated = Payload<typeof TournamentCreated>;
export type TeamRegistered = Payload<typeof TeamRegistered>;
export type TeamWithdrawn = Payload<typeof TeamWithdrawn>;
export type TournamentStarted = Payload<typeof TournamentStarted>;
export type TeamDisqualified = Payload<typeof TeamDisqualified>;
export type MatchStarted = Payload<typeof MatchStarted>;
export type ClockStarted = Payload<typeof ClockStarted>;
export type TimeCalled = Payload<typeof TimeCalled>;
export type GameStarted = Payload<typeof GameStarted>;
export type HandDealt = Payload<typeof HandDealt>;
export type BidMade = Payload<typeof BidMade>;
export type CardPlayed = Payload<typeof CardPlayed>;
export type TricksRecorded = Payload<typeof TricksRecorded>;
export type MisdealCalled = Payload<typeof MisdealCalled>;
export type RenegeClaimed = Payload<typeof RenegeClaimed>;
export type RulingGiven = Payload<typeof RulingGiven>;
export type ScoreCorrected = Payload<typeof ScoreCorrected>;
export type EntryUndone = Payload<typeof EntryUndone>;
export type RulingWithdrawn = Payload<typeof RulingWithdrawn>;
export type TeamCheckedIn = Payload<typeof TeamCheckedIn>;
export type PlayerRegistered = Payload<typeof PlayerRegistered>;
export type GameResultCorrected = Payload<typeof GameResultCorrected>;
export type ProgressiveRoundStarted = Payload<typeof ProgressiveRoundStarted>;
export type ProgressiveRoundsChanged = Payload<typeof ProgressiveRoundsChanged>;
export type ScreenPinned = Payload<typeof ScreenPinned>;
export type BracketRoundDrawn = Payload<typeof BracketRoundDrawn>;
export type PartnersDrawn = Payload<typeof PartnersDrawn>;
export type SignUpOpened = Payload<typeof SignUpOpened>;
export type SignUpClosed = Payload<typeof SignUpClosed>;
export type TeamWaitlisted = Payload<typeof TeamWaitlisted>;
export type WaitlistPromoted = Payload<typeof WaitlistPromoted>;
export type FeePaid = Payload<typeof FeePaid>;
export type FeePaymentUndone = Payload<typeof FeePaymentUndone>;
export type CheckInUndone = Payload<typeof CheckInUndone>;
export type TeamStart = { score: number; bags: number; sets: number };
export type { Team };

/** Every event type the ledger records. */
export const domainEvents = eventRegistry(
  TournamentCreated,
  TeamRegistered,
  TeamWithdrawn,
  TournamentStarted,
  TeamDisqualified,
  MatchStarted,
  ClockStarted,
  TimeCalled,
  GameStarted,
  HandDealt,
  BidMade,
  CardPlayed,
  TricksRecorded,
  MisdealCalled,
  RenegeClaimed,
  RulingGiven,
  ScoreCorrected,
  EntryUndone,
  RulingWithdrawn,
  TeamCheckedIn,
  PlayerRegistered,
  GameResultCorrected,
  ProgressiveRoundStarted,
  ProgressiveRoundsChanged,
  ScreenPinned,
  BracketRoundDrawn,
  SignUpOpened,
  SignUpClosed,
  TeamWaitlisted,
  WaitlistPromoted,
  FeePaid,
  FeePaymentUndone,
  CheckInUndone,
  PartnersDrawn,
  ...CIRCUIT_EVENTS,
);
