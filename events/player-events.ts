/**
 * The events that say who a player is across events, and which events make up a series. A
 * registration names players by name; the ledger takes a name it already knows (compared
 * without case, spacing or punctuation) as the same person. A director corrects that with a
 * merge (two records of one person) or a split (one record of two people), each recorded here
 * with the entries it moved, so the opposite event undoes it exactly.
 */
import { type EventDefinition, check, defineEvent } from './event-registry.ts';

type Payload<D> = D extends EventDefinition<string, infer P> ? P : never;

const id = check.text({ min: 1, max: 120 });
/** One player's place in one event: a team event's `team3:1`, a progressive evening's registered player id. */
const entry = check.object({ tournamentId: id, entry: id });

/** Every entry of `playerId` is `into`'s from here on, and the names it answered to lead to `into`. */
export const PlayersMerged = defineEvent({
  type: 'PlayersMerged',
  version: 1,
  validate: check.object({
    playerId: id,
    into: id,
    /** The entries moved, as they stood when the director decided: what a split gives back. */
    entries: check.array(entry, { max: 5000 }),
  }),
});

/** The entries named are another person's, `into` (a new record named `name`, or one that exists). */
export const PlayerSplit = defineEvent({
  type: 'PlayerSplit',
  version: 1,
  validate: check.object({
    playerId: id,
    into: id,
    name: check.text({ min: 1, max: 120 }),
    entries: check.array(entry, { min: 1, max: 5000 }),
  }),
});

const points = check.record(check.text({ pattern: /^([1-9][0-9]{0,2}|played)$/ }), check.integer({ min: 0, max: 100_000 }));

/** A series (a season, a league, a circuit) and the points it gives for each place and for playing. */
export const SeriesCreated = defineEvent({
  type: 'SeriesCreated',
  version: 1,
  validate: check.object({ seriesId: id, name: check.text({ min: 1, max: 200 }), points }),
});

/** An event counts toward a series from here on (its placings, as they are decided and corrected). */
export const TournamentJoinedSeries = defineEvent({
  type: 'TournamentJoinedSeries',
  version: 1,
  validate: check.object({ tournamentId: id, seriesId: id }),
});

/** An event no longer counts toward its series (a join recorded by mistake, taken back). */
export const TournamentLeftSeries = defineEvent({
  type: 'TournamentLeftSeries',
  version: 1,
  validate: check.object({ tournamentId: id, seriesId: id }),
});

export type PlayersMerged = Payload<typeof PlayersMerged>;
export type PlayerSplit = Payload<typeof PlayerSplit>;
export type SeriesCreated = Payload<typeof SeriesCreated>;
export type TournamentJoinedSeries = Payload<typeof TournamentJoinedSeries>;
export type TournamentLeftSeries = Payload<typeof TournamentLeftSeries>;

/** The circuit's event definitions, for the ledger's registry. */
export const CIRCUIT_EVENTS = [PlayersMerged, PlayerSplit, SeriesCreated, TournamentJoinedSeries, TournamentLeftSeries] as const;
