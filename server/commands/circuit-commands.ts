/**
 * The director's commands for the circuit: a series created and events joining (or leaving) it,
 * two records of one person merged, one record of two people split, and a merge taken back.
 * Each is decided against the read models and refused with a sentence naming what was wrong.
 */
import { own, tournamentById } from '../../events/lookup.ts';
import { idProblem, nameProblem, normalName } from '../../events/names.ts';
import { type Person, entryOf, namedById, personById, playerIdBase } from '../../events/player-identity.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { tournamentStream } from '../../events/streams.ts';
import { CommandError } from './command-error.ts';
import { refuseProblem, tournamentOf } from './tournament-lookup.ts';

/** The stream of the circuit's people: their merges and splits. */
export const PLAYERS_STREAM = 'players';

/** The stream of a series' own events. */
export function seriesStream(seriesId: string): string {
  return `series-${seriesId}`;
}

const MAX_PLACE = 999;
const MAX_POINTS = 100_000;

/**
 * The series' points table as given (`{ "1": 10, "2": 7, "played": 1 }`), checked: places are
 * whole numbers from 1, `played` is the points for playing, every value a whole number of points.
 */
export function pointsTable(points: unknown): Record<string, number> {
  if (typeof points !== 'object' || points === null || Array.isArray(points)) {
    throw new CommandError('points must give the points for each place and for playing, such as { "1": 10, "2": 7, "3": 5, "played": 1 }');
  }
  const table: Record<string, number> = {};
  for (const [key, value] of Object.entries(points as Record<string, unknown>)) {
    const what = key === 'played' ? 'the points for playing' : `the points for place ${key}`;
    if (key !== 'played' && !(/^[1-9]\d*$/.test(key) && Number(key) <= MAX_PLACE)) {
      throw new CommandError(`points names places as whole numbers from 1 to ${MAX_PLACE}, and 'played' for playing, not '${key.slice(0, 24)}'`);
    }
    const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_POINTS) {
      throw new CommandError(`${what} must be a whole number from 0 to ${MAX_POINTS.toLocaleString('en-US')}, not ${JSON.stringify(value)?.slice(0, 24)}`);
    }
    table[key] = n;
  }
  if (!Object.keys(table).some((k) => k !== 'played')) throw new CommandError('points must give the points for at least one place, such as { "1": 10 }');
  return table;
}

/** Creates a series with its points table. */
export function createSeries(models: ReadModels, input: { seriesId: string; name: string; points: unknown }): Decision {
  refuseProblem(idProblem(input.seriesId, 'a series id'));
  const name = normalName(input.name ?? '');
  if (!name) throw new CommandError('the series needs a name');
  refuseProblem(nameProblem(name, 'the series name'));
  if (name.length > 200) throw new CommandError(`the series name is ${name.length} characters long; a name is at most 200`);
  const existing = own(models.circuit.series, input.seriesId);
  if (existing) throw new CommandError(`there is already a series '${input.seriesId}', ${existing.name}`, 409);
  const points = pointsTable(input.points);
  return { stream: seriesStream(input.seriesId), events: [{ type: 'SeriesCreated', payload: { seriesId: input.seriesId, name, points } }] };
}

/** An event joins a series: its placings count toward it from here on. */
export function joinSeries(models: ReadModels, input: { tournamentId: string; seriesId: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const series = own(models.circuit.series, input.seriesId);
  if (!series) throw new CommandError(`there is no series '${input.seriesId}'; create it first`, 404);
  const current = own(models.circuit.seriesOf, input.tournamentId);
  if (current === input.seriesId) throw new CommandError(`${tournament.model.name} already counts toward ${series.name}`, 409);
  if (current !== undefined) {
    throw new CommandError(`${tournament.model.name} counts toward ${models.circuit.series[current]!.name}; take it out of that series first`, 409);
  }
  return {
    stream: tournamentStream(input.tournamentId),
    events: [{ type: 'TournamentJoinedSeries', payload: { tournamentId: input.tournamentId, seriesId: input.seriesId } }],
  };
}

/** An event leaves its series (a join recorded by mistake). */
export function leaveSeries(models: ReadModels, input: { tournamentId: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const current = own(models.circuit.seriesOf, input.tournamentId);
  if (current === undefined) throw new CommandError(`${tournament.model.name} counts toward no series`, 409);
  return {
    stream: tournamentStream(input.tournamentId),
    events: [{ type: 'TournamentLeftSeries', payload: { tournamentId: input.tournamentId, seriesId: current } }],
  };
}

function personOf(models: ReadModels, playerId: string, what = 'player'): Person {
  const person = own(models.circuit.people, playerId);
  if (!person) throw new CommandError(`there is no ${what} '${playerId.slice(0, 60)}'`, 404);
  if (person.mergedInto !== undefined)
    throw new CommandError(
      `${person.name} (${playerId}) was merged into ${personById(models.circuit, playerId)?.name ?? 'another player'}; use that record`,
      409,
    );
  return person;
}

const tournamentsOf = (person: Person) => new Set(person.entries.map((key) => entryOf(key).tournamentId));

/** Two records of one person made one: every entry of `playerId` is `into`'s. */
export function mergePlayers(models: ReadModels, input: { playerId: string; into: string }): Decision {
  const from = personOf(models, input.playerId);
  const into = personOf(models, input.into);
  if (from === into) throw new CommandError(`${from.name} cannot be merged into the same record`);
  const into_ = tournamentsOf(into);
  const shared = [...tournamentsOf(from)].filter((t) => into_.has(t));
  if (shared.length > 0) {
    const names = shared.map((t) => tournamentById(models, t)?.model.name ?? t).join(', ');
    throw new CommandError(
      `${from.name} and ${into.name} both played in ${names}; one person cannot have two places in one event, so they are two people`,
      409,
    );
  }
  const entries = from.entries.map(entryOf);
  return { stream: PLAYERS_STREAM, events: [{ type: 'PlayersMerged', payload: { playerId: from.playerId, into: into.playerId, entries } }] };
}

/**
 * One record of two people made two: the player's entries in the events named become another
 * person's, a new record named `name` (or `into`, a record that exists).
 */
export function splitPlayer(models: ReadModels, input: { playerId: string; tournaments: string[]; name?: string; into?: string }): Decision {
  const from = personOf(models, input.playerId);
  const asked = [...new Set(input.tournaments)];
  if (asked.length === 0) throw new CommandError(`name the events in which ${from.name} was someone else`);
  const entries = from.entries.map(entryOf).filter((e) => asked.includes(e.tournamentId));
  const missing = asked.filter((t) => !entries.some((e) => e.tournamentId === t));
  if (missing.length > 0)
    throw new CommandError(`${from.name} did not play in ${missing.map((t) => tournamentById(models, t)?.model.name ?? `'${t.slice(0, 60)}'`).join(', ')}`);
  if (entries.length === from.entries.length)
    throw new CommandError(`that is every event ${from.name} played; a split leaves at least one event with the record it splits`);
  let into: string;
  let name: string;
  if (input.into) {
    const other = personOf(models, input.into);
    if (other === from) throw new CommandError(`${from.name} cannot be split into the same record`);
    const theirs = tournamentsOf(other);
    const clash = entries.find((e) => theirs.has(e.tournamentId));
    if (clash) throw new CommandError(`${other.name} already played in ${tournamentById(models, clash.tournamentId)?.model.name ?? clash.tournamentId}`, 409);
    into = other.playerId;
    name = other.name;
  } else {
    name = normalName(input.name ?? '') || from.name;
    refuseProblem(nameProblem(name, 'the new player’s name'));
    if (name.length > 120) throw new CommandError(`the new player’s name is ${name.length} characters long; a name is at most 120`);
    const base = playerIdBase(name);
    into = base;
    for (let n = 2; Object.hasOwn(models.circuit.people, into); n++) into = `${base}-${n}`;
  }
  return { stream: PLAYERS_STREAM, events: [{ type: 'PlayerSplit', payload: { playerId: from.playerId, into, name, entries } }] };
}

/** A merge taken back: the record merged away gets back the entries it had, under its own name. */
export function unmergePlayer(models: ReadModels, input: { playerId: string }): Decision {
  const merged = own(models.circuit.people, input.playerId);
  if (!merged) throw new CommandError(`there is no player '${input.playerId.slice(0, 60)}'`, 404);
  if (merged.mergedInto === undefined) throw new CommandError(`${merged.name} (${merged.playerId}) is not merged into anyone`, 409);
  const holder = personById(models.circuit, merged.playerId)!;
  const entries = (merged.mergedEntries ?? []).filter((key) => own(models.circuit.entries, key) === holder.playerId).map(entryOf);
  if (entries.length === 0) throw new CommandError(`none of the entries ${merged.name} had is still with ${holder.name}; split them by event instead`, 409);
  return {
    stream: PLAYERS_STREAM,
    events: [{ type: 'PlayerSplit', payload: { playerId: holder.playerId, into: merged.playerId, name: merged.name, entries } }],
  };
}

/**
 * The join a new event's creation carries when it names a series (`series: id`), recorded in the
 * same decision as the creation; none when it names none.
 */
export function joinOnCreate(models: ReadModels, tournamentId: string, series: unknown): { type: string; payload: Record<string, unknown> }[] {
  if (series === undefined || series === null || series === '') return [];
  if (typeof series !== 'string') throw new CommandError('series must be the id of a series');
  if (!own(models.circuit.series, series)) throw new CommandError(`there is no series '${series.slice(0, 60)}'; create it first`, 404);
  return [{ type: 'TournamentJoinedSeries', payload: { tournamentId, seriesId: series } }];
}

/**
 * Players as a registration names them: a name, or a person's id across events (`#ana-lopez-2`,
 * as the desk offers one of two players of the same name), which gives that person's name. The
 * people named by id, by player (null where the name decides), or null when none was.
 */
export function namedPlayers(models: ReadModels, texts: readonly string[], what: (k: number) => string): { names: string[]; people: (string | null)[] | null } {
  const people = texts.map(() => null as string | null);
  const names = texts.map((text, k) => {
    const named = namedById(models.circuit, text);
    if (!named) return text;
    if ('problem' in named) throw new CommandError(`${what(k)} ${named.problem}`, 404);
    people[k] = named.person.playerId;
    return named.person.name;
  });
  return { names, people: people.some((p) => p !== null) ? people : null };
}
