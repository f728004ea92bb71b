/**
 * A tournament's standings and bracket as they stood at a past ledger position, for "what did
 * the screen show when…" questions. The same components as the live pages, fed read models
 * folded only up to that position, with a picker by position (a slider) or by time.
 */
import type { TournamentModel } from '../events/read-models.ts';
import { Bracket } from './bracket.tsx';
import { Layout } from './layout.tsx';
import { Leaderboard } from './leaderboard.tsx';
import { tournamentLinks } from '../events/addresses.ts';

/** The address of a tournament's as-of page at a position. */
export function asOfLink(tournamentId: string, position?: number): string {
  return `${tournamentLinks(tournamentId).home}/as-of${position === undefined ? '' : `?position=${position}`}`;
}

export interface AsOfPageProps {
  tournamentId: string;
  /** The tournament as it stood; null when it had not been created yet. */
  tournament: TournamentModel | null;
  /** The last ledger position folded in. */
  position: number;
  /** When that event was appended (ISO); null at position 0. */
  at: string | null;
  /** The ledger's head: the slider's end. */
  head: number;
  gamesToWin: number;
  /** The time asked for, when the position was found from a time. */
  askedAt?: string;
}

/** The as-of page. */
export function AsOfPage({ tournamentId, tournament, position, at, head, gamesToWin, askedAt }: AsOfPageProps) {
  const links = tournamentLinks(tournamentId);
  const name = tournament?.name ?? tournamentId;
  return (
    <Layout title={`${name} · as of position ${position}`}>
      <p class="breadcrumb">
        <a href={links.home}>{name}</a> · <a href={links.leaderboard}>live standings</a> · <a href={links.rules}>Rules in force</a>
      </p>
      <h1>
        {name} <span class="muted">as of position {position}</span>
      </h1>
      <p id="as-of" data-position={position}>
        As the ledger stood after position {position} of {head}
        {at ? (
          <>
            , recorded at{' '}
            <time datetime={at}>
              {at
                .replace('T', ' ')
                .replace(/\.\d+Z$/, ' UTC')
                .replace(/Z$/, ' UTC')}
            </time>
          </>
        ) : null}
        {askedAt ? ` (the last event at or before ${askedAt})` : ''}.
      </p>

      <nav class="tournament-nav" aria-label="Step through the ledger">
        <ul>
          <li>{position > 0 ? <a href={asOfLink(tournamentId, position - 1)}>← Position {position - 1}</a> : <span class="muted">← Start</span>}</li>
          <li>{position < head ? <a href={asOfLink(tournamentId, position + 1)}>Position {position + 1} →</a> : <span class="muted">Head →</span>}</li>
          <li>
            <a href={`${links.home}/standings.csv?position=${position}`}>Standings as CSV</a>
          </li>
          <li>
            <a href={`${links.home}/stats.csv?position=${position}`}>Statistics as CSV</a>
          </li>
        </ul>
      </nav>

      <form method="get" action={asOfLink(tournamentId)} aria-labelledby="pick-position">
        <p>
          <label id="pick-position" for="position">
            Ledger position (0 to {head})
          </label>
          <br />
          <input id="position" name="position" type="range" min="0" max={String(head)} step="1" value={String(position)} />
          <button type="submit">Show</button>
        </p>
      </form>
      <form method="get" action={asOfLink(tournamentId)} aria-labelledby="pick-time">
        <p>
          <label id="pick-time" for="at">
            Or a moment (UTC)
          </label>
          <br />
          <input id="at" name="at" type="datetime-local" step="1" value={at ? at.slice(0, 19) : ''} />
          <button type="submit">Show</button>
        </p>
      </form>
      <form method="get" action={asOfLink(tournamentId)} aria-labelledby="pick-clock">
        <p>
          <label id="pick-clock" for="at-today">
            Or a time today, by the venue's clock
          </label>
          <br />
          <input id="at-today" name="at" type="time" step="1" />
          <button type="submit">Show</button>
        </p>
      </form>

      {tournament ? (
        <>
          <Leaderboard tournament={tournament} />
          <Bracket tournament={tournament} gamesToWin={gamesToWin} />
        </>
      ) : (
        <p class="empty">
          Tournament {tournamentId} had not been created yet at position {position}.
        </p>
      )}
    </Layout>
  );
}
