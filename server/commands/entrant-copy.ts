/**
 * "Register the same entrants as …": every team (or player) of an earlier event, previewed and
 * then registered in one confirmation by the bulk paste's rules (all or nothing, each problem
 * named), leaving out those already registered. The earlier event's entrants are written as the
 * lines a director would paste, so the copy is decided exactly as a paste of them would be; the
 * names lead to the same people across events.
 */
import { entrantsAlone } from '../../events/tournament-state.ts';
import { tournamentById } from '../../events/lookup.ts';
import { personOfEntry } from '../../events/player-identity.ts';
import { entriesOf, teamPlayerId } from '../../events/player-ids.ts';
import { registersAlone } from '../../engine/format-play.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import type { TournamentState } from '../../events/tournament-state.ts';
import { type BulkPreview, previewBulk, registerBulk } from './bulk-registration.ts';
import { CommandError } from './command-error.ts';
import { tournamentOf } from './tournament-lookup.ts';

export interface CopyPreview {
  tournamentId: string;
  from: { tournamentId: string; name: string };
  /** What the copy registers, what stays out because it is already registered, and every problem, as the bulk paste decides them. */
  bulk: BulkPreview;
  /** Entrants of the earlier event left out because a player of theirs is already registered here. */
  playing: { name: string; players: string[] }[];
  /** The lines the copy is decided as, for the confirmation to send back. */
  lines: string;
  /** Each line's entrant in people's words, for its problems. */
  labels: string[];
}

const quote = (field: string) => `"${field.replace(/"/g, '""')}"`;

/** The people already entered in an event, by id. */
function peopleIn(models: ReadModels, state: TournamentState): Set<string> {
  const out = new Set<string>();
  const id = state.model.tournamentId;
  for (const row of state.model.teams) {
    if (row.status === 'withdrawn') continue;
    const entries = entriesOf(state, row);
    for (const entry of entries) {
      const person = personOfEntry(models.circuit, id, entry);
      if (person) out.add(person.playerId);
    }
  }
  for (const w of state.registration.waitlist) {
    if (w.withdrawn || w.promoted) continue;
    const entries = registersAlone(state.format) ? [w.teamId] : w.players.map((_, i) => teamPlayerId(w.teamId, i));
    for (const entry of entries) {
      const person = personOfEntry(models.circuit, id, entry);
      if (person) out.add(person.playerId);
    }
  }
  return out;
}

/** What copying `from`'s entrants into the tournament would register, deciding nothing. */
export function previewCopy(models: ReadModels, input: { tournamentId: string; from: string; idOf: (name: string) => string; today?: string }): CopyPreview {
  const target = tournamentOf(models, input.tournamentId);
  if (typeof input.from !== 'string' || input.from === '') throw new CommandError('name the earlier event whose entrants to register');
  if (input.from === input.tournamentId) throw new CommandError(`${target.model.name} cannot copy its own entrants; name an earlier event`);
  const source = tournamentById(models, input.from);
  if (!source) throw new CommandError(`there is no event '${input.from.slice(0, 60)}' to copy entrants from`, 404);
  if (entrantsAlone(source) && !registersAlone(target.format)) {
    throw new CommandError(`${source.model.name} registered players one by one; ${target.model.name} is played by teams of two, so paste its teams instead`);
  }
  const here = peopleIn(models, target);
  const sourceId = source.model.tournamentId;
  const lines: string[] = [];
  const labels: string[] = [];
  // Each player is named by the id of the person they were there (`#ana-lopez`), so the copy
  // registers the very people, even where a split left two of one name.
  const named = (name: string, person: { playerId: string } | undefined) => quote(person ? `#${person.playerId}` : name);
  const playing: CopyPreview['playing'] = [];
  // A player drawn onto two teams comes once.
  const copied = new Set<string>();
  for (const row of source.model.teams) {
    if (row.status === 'withdrawn') continue;
    const entries = entriesOf(source, row);
    const people = entries.map((entry) => personOfEntry(models.circuit, sourceId, entry));
    if (registersAlone(target.format)) {
      // A team event's players come one by one to an event of players registering alone.
      row.players.forEach((name, i) => {
        if (people[i] && (here.has(people[i]!.playerId) || copied.has(people[i]!.playerId))) return;
        if (people[i]) copied.add(people[i]!.playerId);
        const gender = source.progressive?.players.find((p) => p.playerId === row.teamId)?.gender;
        lines.push([named(name, people[i]), ...(gender ? [gender] : [])].join(','));
        labels.push(name);
      });
      continue;
    }
    // A team whose name is registered here already is left to the paste's rules (left out when the same players).
    const clash = people.some((p) => p && here.has(p.playerId));
    if (clash && !target.model.teams.some((t) => t.name.toLowerCase() === row.name.toLowerCase())) {
      playing.push({ name: row.name, players: [...row.players] });
      continue;
    }
    lines.push([quote(row.name), ...row.players.map((name, i) => named(name, people[i]))].join(','));
    labels.push(row.name);
  }
  const text = lines.join('\n');
  const bulk = previewBulk(models, { tournamentId: input.tournamentId, lines: text, idOf: input.idOf, ...(input.today ? { today: input.today } : {}) });
  return { tournamentId: input.tournamentId, from: { tournamentId: sourceId, name: source.model.name }, bulk, playing, lines: text, labels };
}

/** The copy in one decision, or a refusal naming each entrant with a problem; null when it adds nobody. */
export function registerCopy(models: ReadModels, preview: CopyPreview, codeSeed: () => string): Decision | null {
  if (preview.bulk.problems.length > 0) {
    const said = preview.bulk.problems.map((p) => `${preview.labels[p.line - 1] ?? 'an entrant'}: ${p.problem}`);
    const n = said.length;
    throw new CommandError(`${n} problem${n === 1 ? '' : 's'} copying the entrants of ${preview.from.name}, so nothing was recorded: ${said.join('; ')}`);
  }
  return registerBulk(preview.bulk, {
    tournamentId: preview.tournamentId,
    progressive: registersAlone(tournamentOf(models, preview.tournamentId).format),
    codeSeed,
  });
}
