/**
 * The venue screen of a progressive evening: the same frame, ticker and live tables as any
 * event's screen (screen.tsx), with "where to sit now" and the individual standings in place of
 * the team standings and the bracket. The three panels take turns on the same CSS clock.
 */
import type { GameModel, TournamentModel } from '../events/read-models.ts';
import { IndividualStandings, type ProgressiveView, WhereToSit, individualColumns } from './progressive-panels.tsx';
import { HighlightsTurn, LiveTables, Ticker } from './screen.tsx';
import type { Highlight } from '../events/stats-schema.ts';

export interface ProgressiveScreenProps {
  tournament: TournamentModel;
  view: ProgressiveView;
  liveGames: GameModel[];
  teamNames: Readonly<Record<string, string>>;
  now?: Date;
  highlights?: readonly Highlight[];
}

/** The whole venue screen of a progressive evening. */
export function ProgressiveScreen({ tournament, view, liveGames, teamNames, now, highlights }: ProgressiveScreenProps) {
  return (
    <div class="screen-frame screen--progressive">
      <header class="screen-header">
        <h1 class="screen-title">{tournament.name}</h1>
        <Ticker tournament={tournament} />
      </header>
      <div class="panels">
        <section class="panel panel--seating" aria-label="Where to sit now">
          <WhereToSit view={view} />
        </section>
        <section class="panel panel--individual" aria-label="Individual standings">
          <IndividualStandings view={view} columns={individualColumns(view.standings.length)} />
        </section>
        <section class="panel panel--tables" aria-label="Live tables">
          <LiveTables tournament={tournament} liveGames={liveGames} teamNames={teamNames} now={now} />
        </section>
        <HighlightsTurn tournamentId={tournament.tournamentId} highlights={highlights ?? []} />
      </div>
      <ol class="panel-dots" aria-hidden="true">
        <li>Where to sit</li>
        <li>Standings</li>
        <li>Live tables</li>
        <li class="panel-dot--highlights">Highlights</li>
      </ol>
    </div>
  );
}
