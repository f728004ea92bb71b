/**
 * The venue screen: a TV across the room at 1920×1080, nobody at the keyboard. Three panels
 * take turns by a CSS animation alone, so the rotation keeps going even if scripts fail, and
 * live updates replace only the components inside the panels, never the panels themselves,
 * so an update does not restart the rotation.
 */
import type { GameModel, MatchModel, TournamentModel } from '../events/read-models.ts';
import { Bracket } from './bracket.tsx';
import { Leaderboard } from './leaderboard.tsx';
import { TableView } from './table.tsx';

export const TICKER_ID = 'ticker';
/** What of a bracket fits the screen's bracket panel at 1920×1080; the 16-team pitt-boss bracket shows whole. */
export const SCREEN_BRACKET = { matches: 8, rounds: 3 };
export const LIVE_TABLES_ID = 'live-tables';

/** Results shown in the ticker: enough to read in one pass, newest first. */
const TICKER_LENGTH = 8;

export interface ScreenProps {
  tournament: TournamentModel;
  /** Games being played now, in table order. */
  liveGames: GameModel[];
  /** Team id → team name. */
  teamNames: Readonly<Record<string, string>>;
  /** Games a team must win to take a match; shown on the bracket when more than one. */
  gamesToWin?: number;
  /** The moment match clocks count from; the render time when not given. */
  now?: Date;
}

/** The whole venue screen: header with the results ticker, then the three rotating panels. */
export function Screen({ tournament, liveGames, teamNames, gamesToWin, now }: ScreenProps) {
  return (
    <div class="screen-frame">
      <header class="screen-header">
        <h1 class="screen-title">{tournament.name}</h1>
        <Ticker tournament={tournament} />
      </header>
      <div class="panels">
        <section class="panel panel--standings" aria-label="Standings">
          <Leaderboard tournament={tournament} />
        </section>
        <section class="panel panel--bracket" aria-label="Bracket">
          <Bracket tournament={tournament} gamesToWin={gamesToWin} fit={SCREEN_BRACKET} />
        </section>
        <section class="panel panel--tables" aria-label="Live tables">
          <LiveTables tournament={tournament} liveGames={liveGames} teamNames={teamNames} now={now} />
        </section>
      </div>
      {/* Which panel is up: the dots run on the same clock as the panels. */}
      <ol class="panel-dots" aria-hidden="true">
        <li>Standings</li>
        <li>Bracket</li>
        <li>Live tables</li>
      </ol>
    </div>
  );
}

export interface TickerProps {
  tournament: Pick<TournamentModel, 'latest'>;
}

/** The latest results, newest first, scrolling along the screen's header. */
export function Ticker({ tournament }: TickerProps) {
  const latest = tournament.latest.slice(0, TICKER_LENGTH);
  return (
    <div id={TICKER_ID} class="ticker" role="region" aria-label="Latest results">
      {latest.length === 0 ? (
        <p class="ticker-empty">Results appear here as matches finish.</p>
      ) : (
        <div class="ticker-track">
          <ol class="ticker-items">
            {latest.map((item) => (
              <li data-position={item.position}>{item.text}</li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

export interface LiveTablesProps {
  tournament: Pick<TournamentModel, 'matches'>;
  liveGames: GameModel[];
  teamNames: Readonly<Record<string, string>>;
  now?: Date;
}

/** Every table in play, each with its table number and its match clock. */
export function LiveTables({ tournament, liveGames, teamNames, now }: LiveTablesProps) {
  const matchOf = new Map<string, MatchModel>();
  for (const match of tournament.matches) for (const gameId of match.games) matchOf.set(gameId, match);
  return (
    <section id={LIVE_TABLES_ID} class="live-tables" aria-labelledby="live-tables-title">
      <h2 id="live-tables-title">Live tables</h2>
      {liveGames.length === 0 ? (
        <p class="empty">No games in play right now.</p>
      ) : (
        <ol class="live-table-list">
          {liveGames.map((game) => {
            const match = matchOf.get(game.gameId);
            return (
              <li class="live-table">
                {match?.table != null ? <p class="table-number">Table {match.table}</p> : null}
                <TableView game={game} teamNames={teamNames} clock={match?.clock ?? null} now={now} />
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
