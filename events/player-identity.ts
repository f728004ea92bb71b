/**
 * The circuit projection: who each player is across events, and which events make up each
 * series. It is folded from the ledger with the rest of the read models (projections.ts), so it
 * is rebuilt, read as of a past position and verified as they are.
 *
 * A name registered in any event (a team's roster, a progressive evening's player, a waitlisted
 * entrant, the public sign-up's) is the person the ledger already knows by that name, compared
 * without case, spacing or punctuation; a name it does not know yet is a new person, whose id
 * (`playerId`) is made from the name once and never changes. Two entries of one event are never
 * one person by name alone: the second is another person of the same name. A director's merge
 * or split moves entries between people; every page and answer reads them from here.
 */
import anyAscii from 'any-ascii';
import type { PlayerRegistered, TeamRegistered, TeamWaitlisted } from './event-catalogue.ts';
import { own } from './lookup.ts';
import { normalName } from './names.ts';
import type { PlayerSplit, PlayersMerged, SeriesCreated, TournamentJoinedSeries, TournamentLeftSeries } from './player-events.ts';
import { teamPlayerId } from './player-ids.ts';

/** A person as the circuit knows them. */
export interface Person {
  playerId: string;
  /** The name first registered. */
  name: string;
  /** Their entries, `tournamentId entry`, in the order registered (or moved here). */
  entries: string[];
  /** Set when a merge made this record another's: its entries and names are that person's now. */
  mergedInto?: string;
  /** The entries the merge moved, so taking it back gives them back. */
  mergedEntries?: string[];
}

/** A series and the events that count toward it. */
export interface SeriesDefinition {
  seriesId: string;
  name: string;
  /** Points by place (`"1"`, `"2"`…) and for playing (`played`). */
  points: Record<string, number>;
  /** The events counting toward it, in the order they joined. */
  tournaments: string[];
}

export interface CircuitState {
  people: Record<string, Person>;
  /** The person a name leads to, by its match key (playerKey). */
  byKey: Record<string, string>;
  /** Each entry's person: `tournamentId entry` → playerId. */
  entries: Record<string, string>;
  series: Record<string, SeriesDefinition>;
  /** The series each event counts toward. */
  seriesOf: Record<string, string>;
}

/** An empty circuit, before position 1. */
export function emptyCircuit(): CircuitState {
  return { people: {}, byKey: {}, entries: {}, series: {}, seriesOf: {} };
}

/** How two names that are one person compare: without case, spacing or punctuation. */
export function playerKey(name: string): string {
  return normalName(name)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]/gu, '');
}

/** An entry's key in the circuit: the event and the player's place in it. */
export function entryKey(tournamentId: string, entry: string): string {
  return `${tournamentId} ${entry}`;
}

/** The event and the entry an entry key names. */
export function entryOf(key: string): { tournamentId: string; entry: string } {
  const at = key.indexOf(' ');
  return { tournamentId: key.slice(0, at), entry: key.slice(at + 1) };
}

/** The id a new person of this name takes, before it is made unique: letters, digits and dashes. */
export function playerIdBase(name: string): string {
  // Any script is spelled in Latin letters first, as entrants' ids are: 'Пётр' is petr.
  const base = anyAscii(normalName(name))
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    // An apostrophe joins a name's letters (O'Neil is oneil), as the comparison does.
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return base || 'player';
}

/** The person of an entry, following merges; undefined for an entry the circuit does not hold. */
export function personOfEntry(circuit: CircuitState, tournamentId: string, entry: string): Person | undefined {
  const id = own(circuit.entries, entryKey(tournamentId, entry));
  return id === undefined ? undefined : personById(circuit, id);
}

/** A person by id; a merged record leads to the person it was merged into. */
export function personById(circuit: CircuitState, playerId: string): Person | undefined {
  let person = own(circuit.people, playerId);
  for (let hops = 0; person?.mergedInto !== undefined && hops < 100; hops++) person = own(circuit.people, person.mergedInto);
  return person;
}

/** The person a name leads to now, if the circuit knows the name. */
export function personByName(circuit: CircuitState, name: string): Person | undefined {
  const id = own(circuit.byKey, playerKey(name));
  return id === undefined ? undefined : personById(circuit, id);
}

/**
 * A player named by their id where a name is expected (`#ana-lopez-2`, as a paste or the desk may
 * name one of two players of the same name): the person, or why there is none; null for a name.
 */
export function namedById(circuit: CircuitState, text: string): { person: Person } | { problem: string } | null {
  const m = /^#([A-Za-z0-9][A-Za-z0-9-]{0,59})$/.exec(text.trim());
  if (!m) return null;
  const person = personById(circuit, m[1]!);
  return person ? { person } : { problem: `names the player '#${m[1]}', and there is no player of that id` };
}

/** Everyone the circuit knows, merged records left out, by name. */
export function knownPlayers(circuit: CircuitState): Person[] {
  return Object.values(circuit.people)
    .filter((p) => p.mergedInto === undefined && p.entries.length > 0)
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.playerId.localeCompare(b.playerId));
}

function freePlayerId(circuit: CircuitState, name: string): string {
  const base = playerIdBase(name);
  if (!Object.hasOwn(circuit.people, base)) return base;
  for (let n = 2; ; n++) if (!Object.hasOwn(circuit.people, `${base}-${n}`)) return `${base}-${n}`;
}

function newPerson(circuit: CircuitState, playerId: string, name: string): Person {
  const person: Person = { playerId, name: normalName(name), entries: [] };
  circuit.people[playerId] = person;
  return person;
}

/**
 * Gives an entry its person: the one the registration named by id, else the one the name leads
 * to, unless that person already plays in this event.
 */
function enter(circuit: CircuitState, tournamentId: string, entry: string, name: string, named?: string | null): void {
  const key = entryKey(tournamentId, entry);
  if (Object.hasOwn(circuit.entries, key)) return;
  const match = playerKey(name);
  let person = (named ? personById(circuit, named) : undefined) ?? personByName(circuit, name);
  if (person?.entries.some((e) => e.startsWith(`${tournamentId} `))) person = undefined;
  if (!person) {
    person = newPerson(circuit, freePlayerId(circuit, name), name);
    if (match && !Object.hasOwn(circuit.byKey, match)) circuit.byKey[match] = person.playerId;
  }
  person.entries.push(key);
  circuit.entries[key] = person.playerId;
}

/** Moves entries held by `from` to `to`. */
function move(circuit: CircuitState, from: Person, to: Person, keys: readonly string[]): void {
  const moving = new Set(keys.filter((k) => own(circuit.entries, k) === from.playerId));
  if (moving.size === 0) return;
  from.entries = from.entries.filter((k) => !moving.has(k));
  for (const k of moving) {
    to.entries.push(k);
    circuit.entries[k] = to.playerId;
  }
}

export type CircuitEvent =
  | { type: 'TeamRegistered'; payload: TeamRegistered }
  | { type: 'TeamWaitlisted'; payload: TeamWaitlisted }
  | { type: 'PlayerRegistered'; payload: PlayerRegistered }
  | { type: 'PlayersMerged'; payload: PlayersMerged }
  | { type: 'PlayerSplit'; payload: PlayerSplit }
  | { type: 'SeriesCreated'; payload: SeriesCreated }
  | { type: 'TournamentJoinedSeries'; payload: TournamentJoinedSeries }
  | { type: 'TournamentLeftSeries'; payload: TournamentLeftSeries };

/** The event types the circuit folds. */
export const CIRCUIT_EVENT_TYPES: ReadonlySet<string> = new Set([
  'TeamRegistered',
  'TeamWaitlisted',
  'PlayerRegistered',
  'PlayersMerged',
  'PlayerSplit',
  'SeriesCreated',
  'TournamentJoinedSeries',
  'TournamentLeftSeries',
]);

/**
 * Folds one event into the circuit; `progressive` says whether the event's tournament registers
 * players one by one (a progressive evening, or drawn partners: its entries are the registered
 * ids, which a drawn team's roster names too) or teams (`team3:1`, `team3:2`). Never
 * fails: an event naming what the circuit does not hold changes nothing.
 */
export function evolveCircuit(circuit: CircuitState, event: CircuitEvent, progressive: (tournamentId: string) => boolean | undefined): void {
  switch (event.type) {
    case 'TeamRegistered':
    case 'TeamWaitlisted': {
      const e = event.payload;
      const alone = progressive(e.tournamentId);
      if (alone === undefined) return;
      if (alone) enter(circuit, e.tournamentId, e.teamId, e.players[0] ?? e.name, e.people?.[0]);
      else e.players.forEach((name, i) => enter(circuit, e.tournamentId, teamPlayerId(e.teamId, i), name, e.people?.[i]));
      return;
    }
    case 'PlayerRegistered': {
      const e = event.payload;
      if (progressive(e.tournamentId) === undefined) return;
      enter(circuit, e.tournamentId, e.playerId, e.name, e.people?.[0]);
      return;
    }
    case 'PlayersMerged': {
      const e = event.payload;
      const from = own(circuit.people, e.playerId);
      const into = personById(circuit, e.into);
      if (!from || !into || from === into) return;
      from.mergedEntries = [...from.entries];
      move(circuit, from, into, from.mergedEntries);
      from.mergedInto = into.playerId;
      for (const key in circuit.byKey) if (circuit.byKey[key] === from.playerId) circuit.byKey[key] = into.playerId;
      return;
    }
    case 'PlayerSplit': {
      const e = event.payload;
      const from = personById(circuit, e.playerId);
      if (!from) return;
      let into = own(circuit.people, e.into);
      if (into === from) return;
      if (!into) into = newPerson(circuit, e.into, e.name);
      else {
        delete into.mergedInto;
        delete into.mergedEntries;
      }
      move(
        circuit,
        from,
        into,
        e.entries.map((x) => entryKey(x.tournamentId, x.entry)),
      );
      // The name of the person split off leads to them, unless it is the name the other goes by.
      const key = playerKey(into.name);
      if (key && key !== playerKey(from.name) && (own(circuit.byKey, key) === undefined || own(circuit.byKey, key) === from.playerId))
        circuit.byKey[key] = into.playerId;
      return;
    }
    case 'SeriesCreated': {
      const e = event.payload;
      if (Object.hasOwn(circuit.series, e.seriesId)) return;
      circuit.series[e.seriesId] = { seriesId: e.seriesId, name: e.name, points: { ...e.points } as Record<string, number>, tournaments: [] };
      return;
    }
    case 'TournamentJoinedSeries': {
      const e = event.payload;
      const series = own(circuit.series, e.seriesId);
      if (!series || Object.hasOwn(circuit.seriesOf, e.tournamentId) || progressive(e.tournamentId) === undefined) return;
      series.tournaments.push(e.tournamentId);
      circuit.seriesOf[e.tournamentId] = e.seriesId;
      return;
    }
    case 'TournamentLeftSeries': {
      const e = event.payload;
      const series = own(circuit.series, e.seriesId);
      if (!series || own(circuit.seriesOf, e.tournamentId) !== e.seriesId) return;
      series.tournaments = series.tournaments.filter((t) => t !== e.tournamentId);
      delete circuit.seriesOf[e.tournamentId];
      return;
    }
    default: {
      // Every circuit event is handled above.
      event satisfies never;
      return;
    }
  }
}

/**
 * How an event's own player ids read across events: the person's `playerId` for an entry the
 * circuit holds, the event's id otherwise (a name a game record seats and no roster holds).
 */
export function personLookup(circuit: CircuitState | undefined, tournamentId: string): (entry: string) => string {
  if (!circuit) return (entry) => entry;
  return (entry) => personOfEntry(circuit, tournamentId, entry)?.playerId ?? entry;
}
