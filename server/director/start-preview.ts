/**
 * The draw a start would record, shown before anything is recorded: the start's decision is
 * folded into a copy of the tournament, the same fold the ledger's replay makes, so the
 * preview's seeds, round 1's matches and byes (or a progressive evening's first seating) are
 * those the confirmation records. Nothing here writes.
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { evolveTournament, type TournamentState } from '../../events/tournament-projection.ts';
import type { ReadModels } from '../../events/projections.ts';
import { tournamentOf } from '../commands/tournament-lookup.ts';
import type { StartPreview } from '../../views/director-start.tsx';

export type { StartPreview };

/** The start `decision` would make of the tournament, without recording it. */
export function startPreview(models: ReadModels, tournamentId: string, decision: Decision, resend: Record<string, string>): StartPreview {
  const before = tournamentOf(models, tournamentId);
  const after = structuredClone(before) as TournamentState;
  const at = new Date(0).toISOString();
  decision.events.forEach((event, i) =>
    evolveTournament(after, { ...event, at } as Parameters<typeof evolveTournament>[1], models.position + i + 1, models.games ?? {}),
  );
  const name = (id: string | null) => after.model.teams.find((t) => t.teamId === id)?.name ?? id ?? '';
  const started = decision.events.find((e) => e.type === 'TournamentStarted')!.payload as { seeds: string[]; seeding: StartPreview['seeding'] };
  const withdrawn = decision.events.filter((e) => e.type === 'TeamWithdrawn').map((e) => name((e.payload as { teamId: string }).teamId));
  const first = after.model.matches.filter((m) => m.round === 1 && (m.side === 'winners' || after.model.matches.every((x) => x.side !== 'winners')));
  return {
    tournamentId,
    progressive: seatedAtTables(after.format),
    seeds: started.seeds.map((teamId, i) => ({ seed: i + 1, teamId, name: name(teamId) })),
    withdrawn,
    seeding: started.seeding,
    matches: first.map((m) => ({ label: m.label, teams: m.teams.filter((t) => t !== null).map(name), bye: m.status === 'bye' || m.teams.includes(null) })),
    seating: (after.progressive?.nextSeating ?? []).map((t) => ({ table: t.table, seats: [t.seats.N, t.seats.E, t.seats.S, t.seats.W].map(name) })),
    sittingOut: (after.progressive?.nextSittingOut ?? []).map(name),
    expect: started.seeds.join(','),
    resend,
  };
}
