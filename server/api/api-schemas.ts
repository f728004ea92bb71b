/**
 * The shapes the read API answers with, as zod schemas: each one types its resource
 * (`z.infer`), checks every answer before it leaves, and is written into the OpenAPI document
 * (openapi.ts), so the three never disagree. Every id stands beside the name it belongs to.
 */
import { z } from 'zod';
import { rulesValueSchema } from '../../engine/record-schema.ts';
import { ruleOption } from '../../engine/rule-options.ts';
import { ELIMINATIONS, type Elimination } from '../../engine/formats.ts';
import { LeagueShape } from './league-schemas.ts';
import { PoolShape, TiebreaksSchema } from './pool-schemas.ts';
import { PrizesShape, secondChanceFields } from './placing-schemas.ts';
import { partnerFields } from './partner-schemas.ts';

/** The schemas the document names under components/schemas, by their id there. */
export const apiRegistry = z.registry<{ id: string; description?: string }>();

export function named<T extends z.ZodType>(id: string, description: string, schema: T): T {
  apiRegistry.add(schema, { id, description });
  return schema;
}

export const count = z.number().int().min(0);
export const seat = z.enum(['N', 'E', 'S', 'W']);
export const side = z.enum(['NS', 'EW']);
export const bid = z.union([z.number().int().min(0).max(13), z.string()]).describe('tricks bid, or "nil" / "blind-nil" as the rules name them');
export const rules = rulesValueSchema.describe('a rules preset by name, or a preset with options overridden (docs/rule-options.md)');
export const link = z.string().describe('an address on this server');

/** A time as the ledger recorded it: when the event that did it was appended. */
export const when = (what: string) =>
  z.iso.datetime({ offset: true }).nullable().describe(`${what}: the time the ledger recorded, ISO 8601; null until it happens`);

/** A tournament's dates. */
const tournamentDates = {
  createdAt: when('when the tournament was created'),
  startedAt: when('when it started (its bracket drawn, or its first round seated)'),
  completedAt: when('when its last result was decided; null again while a ruling reopens it'),
};

/**
 * What a refusal was, for a program to branch on; the sentence beside it is for people. A code
 * keeps its meaning for as long as /api/v1 stands, and new ones are only added.
 */
export const ErrorCodeSchema = z
  .enum(['not-found', 'no-such-address', 'invalid-parameter', 'invalid-cursor', 'too-many-reads', 'too-many-streams', 'method-not-allowed', 'unavailable'])
  .describe(
    'not-found: no such id (now, or at the position asked for); no-such-address: nothing is served at that address; invalid-parameter: a parameter’s value is wrong; invalid-cursor: a cursor this list did not give; too-many-reads: too many ledger-wide (asOf) reads waiting, try again after Retry-After; too-many-streams: too many feed streams from this address or in all, try again after Retry-After; method-not-allowed: the API only reads; unavailable: the ledger cannot be read just now',
  );
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ErrorSchema = named(
  'Error',
  'A refusal: one sentence saying what was wrong and where, and a stable code for programs.',
  z.object({ error: z.string(), code: ErrorCodeSchema }),
);

export const TournamentSummarySchema = named(
  'TournamentSummary',
  'A tournament in the list: what it is, where it stands, and where to read more.',
  z.object({
    tournamentId: z.string(),
    name: z.string(),
    format: z.string().describe('the tournament format: blp-2024, unc-intramural, pitt-boss, asher-theatre, tournament-spades or custom'),
    status: z.enum(['registration', 'running', 'finished']),
    ...tournamentDates,
    counts: z.object({
      entrants: count.describe('teams, or players in a progressive evening, registered and not withdrawn'),
      matches: count,
      matchesDone: count,
      liveTables: count,
    }),
    links: z.object({
      self: link,
      stats: link.describe('the tournament’s statistics'),
      matches: link.describe('the tournament’s matches'),
      entrants: link.describe('the tournament’s entrants with their players’ ids'),
      page: link,
      standings: link,
      bracket: link,
    }),
  }),
);

export const TournamentListSchema = named(
  'TournamentList',
  'Every tournament the ledger holds, in the order they were created.',
  z.object({
    position: count.describe('the ledger position this answer was folded at'),
    next: link.nullable().describe('the next page, when a `limit` was given and more tournaments follow; null on the last page'),
    tournaments: z.array(TournamentSummarySchema),
  }),
);

const FormatOptionsSchema = named(
  'FormatOptions',
  'How the tournament is played: elimination, games to win a match, clocks, the rules of each round, prizes.',
  z.object({
    elimination: z.enum(ELIMINATIONS as [Elimination, ...Elimination[]]).describe('the structure: how teams go out, or that they play on (round robin, Swiss)'),
    reset: z.boolean(),
    gamesToWin: z.number().int().min(1),
    clockMinutes: z.number().int().nullable(),
    finalClockMinutes: z.number().int().nullable(),
    clockPer: z.enum(['match', 'game']),
    rules,
    firstRoundRules: rules.nullable(),
    finalRules: rules.nullable(),
    byeByDraw: z.boolean(),
    roundByRound: z.boolean(),
    firstDealer: ruleOption('firstDealer').schema,
    prizes: z.array(z.string()),
    rounds: z.number().int().nullable().describe('rounds of a progressive evening or a Swiss event; times through a round robin (1 or 2)'),
    pools: z.number().int().nullable().describe('pools into a playoff: the number of pools; null for other structures'),
    advance: z.number().int().nullable().describe('pools into a playoff: how many of each pool’s top teams go on to the playoff; null for other structures'),
    playoff: z.enum(['single', 'double']).nullable().describe('pools into a playoff: the playoff’s elimination; null for other structures'),
  }),
);

export const entrantStatus = z.enum(['registered', 'withdrawn', 'alive', 'out', 'disqualified', 'champion']);

export const PlayerRefSchema = named(
  'PlayerRef',
  'A player: the person’s id, the same in every event they enter (a name registered again, in any case, spacing or punctuation, is the same person unless a director split them; /api/v1/players/{playerId}), and their name. The id is null only where a game entered from a record seats a name no roster holds.',
  z.object({ playerId: z.string().nullable(), name: z.string() }),
);

const RosterEntrySchema = z.object({ playerId: z.string(), name: z.string() });

const TeamSchema = named(
  'Team',
  'A team with its players.',
  z.object({
    teamId: z.string(),
    name: z.string(),
    players: z.array(z.string()).describe('the players’ names, in roster order'),
    roster: z.array(RosterEntrySchema).describe('the players with their ids, in roster order'),
    seed: z.number().int().nullable(),
    status: entrantStatus,
  }),
);

const PlayerSchema = named(
  'Player',
  'A player of a progressive evening.',
  z.object({
    playerId: z.string().describe('the person’s id across every event (/api/v1/players/{playerId})'),
    entrantId: z.string().describe('the evening’s own id for the player, as its seatings and standings name them'),
    name: z.string(),
    gender: z.enum(['male', 'female']).nullable(),
    seed: z.number().int().nullable(),
    status: entrantStatus,
  }),
);

const EntrantsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('teams'), teams: z.array(TeamSchema) }),
  z.object({ kind: z.literal('players'), players: z.array(PlayerSchema) }),
]);

export const SlotSchema = named(
  'Slot',
  'One side of a match: the team in it, and where its team comes from (a seed, the winner or loser of a match, or a bye).',
  z.object({
    teamId: z.string().nullable(),
    name: z.string().nullable(),
    players: z.array(PlayerRefSchema).describe('the players on this side: the team’s roster, or at a progressive table the two partners'),
    from: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('seed'), seed: z.number().int() }),
        z.object({ kind: z.literal('winner'), matchId: z.string() }),
        z.object({ kind: z.literal('loser'), matchId: z.string() }),
        z.object({ kind: z.literal('bye') }),
      ])
      .nullable(),
  }),
);

export const MatchSchema = named(
  'Match',
  'A match of the bracket.',
  z.object({
    matchId: z.string(),
    label: z.string(),
    round: z.number().int(),
    side: z
      .enum(['winners', 'losers', 'final', 'third-place', 'consolation', 'pool', 'table'])
      .describe('the bracket’s side; `pool` for a match of pool play; `table` for a progressive evening’s table, which only the matches resource lists'),
    table: z.number().int().nullable(),
    status: z.enum(['waiting', 'ready', 'live', 'done', 'bye', 'forfeit']),
    slots: z.tuple([SlotSchema, SlotSchema]),
    gamesWon: z.tuple([count, count]),
    winner: z.string().nullable().describe('the winning team id'),
    games: z.array(z.string()).describe('the game ids played that count for the match, in order'),
    underReview: z.boolean(),
    voided: z.boolean().describe('whether a later ruling took back the match’s decided result, or voided games of it, and it is to be played again'),
    voidedGames: z
      .array(z.object({ gameId: z.string(), voided: z.literal(true), voidedBy: count.describe('the ledger position of the ruling that voided the game') }))
      .describe('games played in the match that a later ruling voided: kept on record, counted for nothing'),
    reopenedBy: count.nullable().describe('the ledger position of the ruling that reopened the match, while it is played again'),
    awaitingRuling: z
      .object({ since: z.string().describe('when the oldest of them was claimed, as the ledger recorded it'), claims: count.min(1) })
      .nullable()
      .describe('claims in the match’s games waiting for a ruling, which hold its result: the match is not decided until they are ruled on'),
    startedAt: when('when the match was seated or its first game started'),
    completedAt: when('when the match was decided; null again while a ruling reopens it'),
  }),
);

const RoundSchema = named(
  'ProgressiveRound',
  'A round of a progressive evening: who sat where at each table, who sat out, and each player’s score once it is over.',
  z.object({
    round: z.number().int(),
    tables: z.array(
      z.object({
        table: z.number().int(),
        gameId: z.string().nullable(),
        seats: z.object({ N: z.string(), E: z.string(), S: z.string(), W: z.string() }).describe('player ids by seat; N and S are partners'),
        result: z.object({ scores: z.object({ NS: z.number().int(), EW: z.number().int() }), winner: side }).nullable(),
      }),
    ),
    sittingOut: z.array(z.string()),
    scores: z.record(z.string(), z.number().int()).nullable().describe('each player’s score for the round, by player id'),
  }),
);

const ProgressiveSchema = z.object({
  roundsInEvent: z.number().int(),
  rounds: z.array(RoundSchema),
  next: z
    .object({
      round: z.number().int(),
      seats: z.array(z.object({ table: z.number().int(), seats: z.object({ N: z.string(), E: z.string(), S: z.string(), W: z.string() }) })),
      sittingOut: z.array(z.string()),
    })
    .nullable(),
});

const StandingSchema = named(
  'Standing',
  'A row of the standings, in the order the standings page shows them.',
  z.object({
    rank: z.number().int().min(1),
    teamId: z.string().describe('the team id, or the player id in a progressive evening'),
    name: z.string(),
    place: z.number().int().nullable().describe('the place decided, once it is'),
    placeLabel: z.string().describe('where the entrant stands, in the competition’s words ("Losers’ bracket", "3rd place", "Champion")'),
    record: z.object({ matches: z.object({ won: count, lost: count }), games: z.object({ won: count, lost: count }) }),
    points: z.number().int(),
    bags: z.number().int(),
    sets: z.number().int(),
    tiebreaks: TiebreaksSchema.nullable().describe(
      'a round robin’s, Swiss event’s or pool’s standings with each tiebreak’s value; null in a knockout or progressive evening',
    ),
  }),
);

const PoolSchema = named(
  'Pool',
  'One pool of pools into a playoff: its teams, its round robin’s standings with each tiebreak’s value, and who of it goes on to the playoff.',
  PoolShape,
);

const LiveTableSchema = named(
  'LiveTable',
  'A table playing a game now.',
  z.object({
    table: z.number().int().nullable(),
    matchId: z.string().nullable(),
    gameId: z.string(),
    teams: z.object({ NS: z.string(), EW: z.string() }),
    score: z.object({ NS: z.number().int(), EW: z.number().int() }),
    hand: z.number().int().describe('the hand being played'),
    clock: z.object({ startedAt: z.string(), minutes: z.number(), calledAt: z.string().nullable() }).nullable(),
  }),
);

const LeagueSchema = named(
  'League',
  'A round robin or Swiss event’s rounds and ranking: each round’s pairings and bye, the tiebreaks in order in words, and any teams tied for first.',
  LeagueShape,
);

export const TournamentSchema = named(
  'Tournament',
  'A tournament as the ledger holds it at one position: its format, entrants, bracket or rounds, standings, live tables and prizes.',
  z.object({
    position: count.describe('the ledger position this answer was folded at'),
    tournamentId: z.string(),
    name: z.string(),
    format: z.string(),
    status: z.enum(['registration', 'running', 'finished']),
    ...tournamentDates,
    options: FormatOptionsSchema,
    entrants: EntrantsSchema,
    bracket: z
      .object({ matches: z.array(MatchSchema) })
      .nullable()
      .describe('null for a progressive evening'),
    progressive: ProgressiveSchema.nullable().describe('null for a bracket event'),
    league: LeagueSchema.nullable().describe('a round robin or Swiss event’s rounds, pairings and ranking; null for other structures'),
    standings: z.array(StandingSchema),
    pools: z.array(PoolSchema).nullable().describe('pools into a playoff: each pool with its standings; null for other structures'),
    liveTables: z.array(LiveTableSchema),
    prizes: PrizesShape,
    ...secondChanceFields,
    ...partnerFields,
    links: z.object({
      self: link,
      stats: link.describe('the tournament’s statistics'),
      matches: link.describe('the tournament’s matches, each one also at an address of its own'),
      entrants: link.describe('the tournament’s entrants with their players’ ids'),
      page: link,
      standings: link,
      bracket: link,
      screen: link,
      standingsCsv: link,
      stream: link.describe('the whole ledger’s live feed'),
      feed: link.describe('this tournament’s events only, on the live feed'),
      embedBracket: link,
      embedStandings: link,
    }),
  }),
);

export type TournamentList = z.infer<typeof TournamentListSchema>;
export type TournamentResource = z.infer<typeof TournamentSchema>;
export type SlotResource = z.infer<typeof SlotSchema>;
