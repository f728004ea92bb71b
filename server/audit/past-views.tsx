/**
 * A tournament as it stood at a past position, made into what the auditors' routes answer: the
 * as-of page or the standings CSV. Run on the reader's thread, beside the fold: the page of a
 * 64-team bracket takes the renderer 10 to 20 ms, which the server's thread spends on the tables
 * and screens instead, and only the finished text crosses over.
 */
import { AsOfPage } from '../../views/as-of.tsx';
import type { PastTournament } from './storage/heavy-reads.ts';
import { standingsCsv } from './standings-csv.ts';
import { statsCsv } from './stats-csv.ts';
import { rankedTeams } from '../../events/standings.ts';

/** What to make of the past tournament: its as-of page (with what the server knows now), its standings CSV, or its statistics. */
export type PastView =
  | {
      kind: 'as-of';
      /** The ledger's head as the request came in: the slider's end. */
      head: number;
      /** Games to win a match, for a tournament not yet created at that position (today's format). */
      gamesToWin: number;
      askedAt?: string;
    }
  | { kind: 'standings' }
  /** The statistics as CSV, or as the JSON payload of `tournamentStatsSchema` (events/stats-schema.ts). */
  | { kind: 'stats-csv' }
  | { kind: 'stats' };

/** The view made, and the position it shows. */
export interface PastAnswer {
  position: number;
  body: string;
}

export function renderPast(tournamentId: string, past: PastTournament, view: PastView): PastAnswer {
  if (view.kind === 'standings') {
    return { position: past.position, body: standingsCsv(past.tournament ? rankedTeams(past.tournament.model) : [], past.tournament?.model.league) };
  }
  if (view.kind === 'stats-csv') return { position: past.position, body: statsCsv(past.tournament?.stats ?? null) };
  if (view.kind === 'stats') return { position: past.position, body: JSON.stringify(past.tournament?.stats ?? null) };
  const page = (
    <AsOfPage
      tournamentId={tournamentId}
      tournament={past.tournament?.model ?? null}
      position={past.position}
      at={past.at}
      head={view.head}
      gamesToWin={past.tournament?.gamesToWin ?? view.gamesToWin}
      {...(view.askedAt ? { askedAt: view.askedAt } : {})}
    />
  );
  return { position: past.position, body: String(page) };
}
