/**
 * A pasted list (or an uploaded CSV) of entrants registered in one decision. For teams a line is
 * `team name, player 1, player 2[, registration date]`; for a progressive evening
 * `name[, prize category]` (male or female). The preview names every entrant to be added and
 * every problem by line and field; the confirmation records all of them in one append, or,
 * while any line has a problem, none. An entrant already registered with the same players is
 * left as it is, so the same paste sent again adds nobody. A player may be named by their id
 * across events, `#ana-lopez-2`, where a name alone would lead to another of the same name.
 */
import { feeFor } from '../../engine/formats.ts';
import { registersAlone } from '../../engine/format-play.ts';
import { drawnPartnersProblem } from './partner-rules.ts';
import { tournamentStream } from '../../events/streams.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import type { ReadModels } from '../../events/projections.ts';
import { namedById } from '../../events/player-identity.ts';
import { entrantNameProblem, nameKey, normalName } from '../../events/names.ts';
import { problemText } from '../../events/entrant-fields.ts';
import { CommandError } from './command-error.ts';
import { freeId, holderOf, samePlayerProblem } from './registration-commands.ts';
import { tournamentOf } from './tournament-lookup.ts';

/** The most entrants one paste may hold: a large event's field and its waitlist. */
export const BULK_MAX_LINES = 512;

export interface BulkEntrant {
  line: number;
  teamId: string;
  name: string;
  players: string[];
  gender?: 'male' | 'female';
  /** The people the paste named by id (`#ana-lopez-2`), by player; null where the name decides. */
  people?: (string | null)[];
  registeredOn?: string;
  fee: number | null;
}

export interface BulkProblem {
  line: number;
  field: string;
  problem: string;
}

export interface BulkPreview {
  entrants: BulkEntrant[];
  /** Lines naming an entrant already registered just so: nothing to add. */
  already: { line: number; teamId: string; name: string }[];
  problems: BulkProblem[];
}

/** A line's fields: tab-separated when it holds a tab, else comma-separated with "quoted, fields". */
export function splitLine(text: string): string[] {
  if (text.includes('\t')) return text.split('\t').map((f) => f.trim());
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        current += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else current += ch;
    } else if (ch === '"' && current.trim() === '') {
      quoted = true;
      current = '';
    } else if (ch === ',') {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  out.push(current.trim());
  return out;
}

const isHeader = (fields: string[]) =>
  /^(team( name)?|name)$/i.test(fields[0] ?? '') && (fields.length === 1 || /^(player ?1|first player|category|prize category|gender)$/i.test(fields[1] ?? ''));

function dayProblem(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return `must be a day such as 2024-09-12, not '${text}'`;
  const date = new Date(`${text}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) return `'${text}' is not a day of the calendar`;
  return null;
}

/** What a paste would register, and every problem in it, deciding nothing. `idOf` makes an id from a name. */
export function previewBulk(models: ReadModels, input: { tournamentId: string; lines: string; idOf: (name: string) => string; today?: string }): BulkPreview {
  const tournament = tournamentOf(models, input.tournamentId);
  const id = input.tournamentId;
  if (tournament.model.status !== 'registration') throw new CommandError(`tournament ${id} has started; registration is closed`, 409);
  const drawn = drawnPartnersProblem(tournament, 'register');
  if (drawn) throw new CommandError(drawn, 409);
  const rows = input.lines.split(/\r\n|\n|\r/);
  // Players alone (a progressive evening's, or those whose partners are drawn): a name a line.
  const progressive = registersAlone(tournament.format);
  const today = input.today?.slice(0, 10);
  const preview: BulkPreview = { entrants: [], already: [], problems: [] };
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  let headerChecked = false;
  let count = 0;
  rows.forEach((text, i) => {
    const line = i + 1;
    if (!text.trim()) return;
    const fields = splitLine(text);
    if (!headerChecked) {
      headerChecked = true;
      if (isHeader(fields)) return;
    }
    if (++count > BULK_MAX_LINES) {
      if (count === BULK_MAX_LINES + 1)
        preview.problems.push({ line, field: 'line', problem: `a paste holds at most ${BULK_MAX_LINES} entrants; send the rest in another` });
      return;
    }
    const problem = (field: string, what: string) => preview.problems.push({ line, field, problem: what });
    let [first0 = '', second = '', third = '', fourth = ''] = fields;
    // A player may be named by their id across events (`#ana-lopez-2`): the person, under their name.
    const people: (string | null)[] = progressive ? [null] : [null, null];
    let unknown = false;
    const byId = (text: string, field: string, k: number): string => {
      const named = namedById(models.circuit, text);
      if (!named) return text;
      if ('problem' in named) {
        problem(field, named.problem);
        unknown = true;
        return text;
      }
      people[k] = named.person.playerId;
      return named.person.name;
    };
    if (progressive) first0 = byId(first0, 'name', 0);
    else [second, third] = [byId(second, 'player1', 0), byId(third, 'player2', 1)];
    let name = first0;
    const most = progressive ? 2 : 4;
    if (fields.length > most) {
      problem(
        'line',
        `has ${fields.length} fields; a line is ${progressive ? 'a name and an optional prize category' : 'team name, player 1, player 2 and an optional registration date'}`,
      );
      return;
    }
    let bad = unknown;
    if (!name) {
      problem('name', 'is missing');
      bad = true;
    } else if (entrantNameProblem(name, '')) {
      problem('name', entrantNameProblem(name, '')!);
      bad = true;
    }
    const players = progressive ? [name] : [second, third];
    let gender: 'male' | 'female' | undefined;
    let registeredOn: string | undefined;
    if (progressive) {
      const category = second.toLowerCase();
      if (category && category !== 'male' && category !== 'female') {
        problem('category', `must be male or female (for the high male / high female prizes), not '${second}'`);
        bad = true;
      } else if (category) gender = category as 'male' | 'female';
    } else {
      (['player1', 'player2'] as const).forEach((field, k) => {
        if (!players[k]) {
          problem(field, 'is missing: a team needs two named players');
          bad = true;
        } else if (entrantNameProblem(players[k]!, '')) {
          problem(field, entrantNameProblem(players[k]!, '')!);
          bad = true;
        }
      });
      const same = !bad && samePlayerProblem(players.map(normalName));
      if (same) {
        problem('player2', same);
        bad = true;
      }
      if (fourth) {
        const wrong = dayProblem(fourth);
        if (wrong) {
          problem('registeredOn', wrong);
          bad = true;
        } else registeredOn = fourth;
      }
    }
    if (!name) return;
    // Compared and stored as normal names: spaces collapsed, compatibility forms folded.
    const key = nameKey(name);
    const typed = name;
    name = normalName(name);
    if (!progressive) players.splice(0, 2, normalName(second), normalName(third));
    else players.splice(0, 1, name);
    const first = seen.get(key);
    if (first !== undefined) {
      problem('name', `'${typed}' is given twice in this paste (first on line ${first})`);
      return;
    }
    seen.set(key, line);
    const holder = holderOf(tournament, name);
    if (holder) {
      const same = progressive || holder.players.map(nameKey).join('\n') === players.map(nameKey).join('\n');
      if (same && !bad) preview.already.push({ line, teamId: holder.teamId, name: holder.name });
      else problem('name', `'${holder.name}' is already registered, with ${holder.players.join(' & ')}`);
      return;
    }
    if (bad) return;
    const teamId = freeId(tournament, input.idOf(name), ids);
    ids.add(teamId);
    preview.entrants.push({
      line,
      teamId,
      name,
      players,
      ...(gender ? { gender } : {}),
      ...(people.some((p) => p !== null) ? { people } : {}),
      ...((registeredOn ?? today) ? { registeredOn: registeredOn ?? today } : {}),
      // A line without a date registers today, and pays the fee of today.
      fee: feeFor(tournament.format, registeredOn ?? today),
    });
  });
  return preview;
}

/**
 * Every entrant of a paste in one decision, or a refusal naming each problem while there is
 * any; null when the paste adds nobody (everyone in it is already registered).
 */
export function registerBulk(preview: BulkPreview, input: { tournamentId: string; progressive: boolean; codeSeed: () => string }): Decision | null {
  if (preview.problems.length > 0) {
    const n = preview.problems.length;
    throw new CommandError(`${n} problem${n === 1 ? '' : 's'} in the paste, so nothing was recorded: ${preview.problems.map(problemText).join('; ')}`);
  }
  if (preview.entrants.length === 0) return null;
  const events = preview.entrants.map((e) => {
    const common = {
      tournamentId: input.tournamentId,
      name: e.name,
      fee: e.fee,
      codeSeed: input.codeSeed(),
      ...(e.registeredOn ? { registeredOn: e.registeredOn } : {}),
      ...(e.people ? { people: e.people } : {}),
    };
    return input.progressive
      ? { type: 'PlayerRegistered', payload: { ...common, playerId: e.teamId, ...(e.gender ? { gender: e.gender } : {}) } }
      : { type: 'TeamRegistered', payload: { ...common, teamId: e.teamId, players: e.players } };
  });
  return { stream: tournamentStream(input.tournamentId), events };
}
