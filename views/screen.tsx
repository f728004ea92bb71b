/**
 * The venue screen: a TV across the room at 1920×1080, nobody at the keyboard. Three panels
 * take turns by a CSS animation alone, so the rotation keeps going even if scripts fail, and
 * live updates replace only the components inside the panels, never the panels themselves,
 * so an update does not restart the rotation.
 *
 * Everything is sized to be read from across the room (no text under 28px at 1920×1080), and
 * laid out by the size of the event, so 4 teams fill the screen as well as 64 do: the
 * standings split into columns, the bracket shows the road from the rounds in play to the final, and the live tables
 * go from large tables with their seats to one line a table as their number grows. Each
 * table keeps a fixed height, so nothing on the screen moves when a card is played.
 */
import { SEAT_NAMES, type Seat, SEATS, type Team, TEAMS } from '../engine/cards.ts';
import { handSoFar, nextBidder } from '../events/game-projection.ts';
import type { GameModel, MatchModel, TournamentModel } from '../events/read-models.ts';
import { Bracket, type RoundDraws } from './bracket.tsx';
import { CardFace } from './card-face.tsx';
import { Leaderboard } from './leaderboard.tsx';
import { Clock } from './match-clock.tsx';
import { HighlightsPanel } from './stats.tsx';
import { pointsPair, pointsText, record } from './team-standing.ts';
import type { Highlight } from '../events/stats-schema.ts';
import { roundHandWords } from './progressive-panels.tsx';
import { waitingParts } from '../events/ruling-wait.ts';
import { WaitingLine } from './ruling-wait.tsx';
import type { RulesSheet } from '../engine/rules-sheet.ts';
import { RulesSheetBody } from './rules-sheet.tsx';
import type { SlotSources } from '../engine/bracket.ts';
import { clockOfGame } from '../events/clocks.ts';
import { newsText } from './news.ts';
import type { LeagueRounds } from '../events/league-rounds.ts';
import { RoundPairings } from './league-table.tsx';

export const TICKER_ID = 'ticker';
/**
 * What of a bracket fits the screen's bracket panel at 1920×1080: every round from the first in
 * play to the final (once all are decided, the last three, or two for a large event), drawn as a
 * tree when the first of them has at most 8 matches, else listed with the 6 that matter most
 * (live ones first; 4 of a round still to come).
 */
export function screenBracket(tournament: Pick<TournamentModel, 'teams'>): { matches: number; rounds: number; units: number } {
  return { matches: 6, rounds: screenSize(tournament) <= 8 ? 3 : 2, units: 8 };
}
export const LIVE_TABLES_ID = 'live-tables';
/** The marker of the tournament the venue's `/screen` address shows. */
export const SCREEN_PIN_ID = 'screen-pin';

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
  /** Where each bracket slot's team comes from. */
  sources?: SlotSources;
  /** A bracket drawn round by round: its byes' cards and the round still to be drawn. */
  drawn?: RoundDraws;
  /** The moment match clocks count from; the render time when not given. */
  now?: Date;
  /** What happened so far worth telling the room (events/tournament-stats.ts), oldest first. */
  highlights?: readonly Highlight[];
  /** Before the start: the rules in force, shown in the live tables' turn while no table plays. */
  rules?: ScreenRules | undefined;
  /** Single elimination: the bracket is one, with no winners' side to name. */
  single?: boolean;
  /** Pools into a playoff: the bracket is the playoff's. */
  playoff?: boolean;
  /** A league (round robin, Swiss): its rounds, whose pairings take the bracket's turn. */
  rounds?: LeagueRounds | null;
}

/** The rules a screen shows before the start, and where the whole sheet is. */
export interface ScreenRules {
  sheet: RulesSheet;
  rulebook: string;
  address: string;
}

/** The screen's size class by the number of teams: the fewer, the larger everything is drawn. */
export function screenSize(tournament: Pick<TournamentModel, 'teams'>): 4 | 8 | 16 | 32 | 64 {
  const n = tournament.teams.filter((t) => t.status !== 'withdrawn').length;
  return n <= 4 ? 4 : n <= 8 ? 8 : n <= 16 ? 16 : n <= 32 ? 32 : 64;
}

/** How many side-by-side tables the standings take on the screen: about 18 rows fit in each. */
export function screenColumns(tournament: Pick<TournamentModel, 'teams'>): number {
  const n = tournament.teams.length;
  return n <= 18 ? 1 : n <= 36 ? 2 : 3;
}

/** The whole venue screen: header with the results ticker, then the three rotating panels. */
export function Screen({
  tournament,
  liveGames,
  teamNames,
  gamesToWin,
  sources,
  drawn,
  now,
  highlights,
  rules,
  single = false,
  rounds,
  playoff = false,
}: ScreenProps) {
  const showsRules = rules !== undefined && liveGames.length === 0;
  const pairings = rounds ? `Round ${rounds.current}` : null;
  return (
    <div class={`screen-frame screen--size-${screenSize(tournament)}`}>
      <header class="screen-header">
        <h1 class="screen-title">{tournament.name}</h1>
        <Ticker tournament={tournament} />
      </header>
      <div class="panels">
        <section class="panel panel--standings" aria-label="Standings">
          <Leaderboard tournament={tournament} columns={screenColumns(tournament)} />
        </section>
        <section class="panel panel--bracket" aria-label={pairings ? 'Pairings' : 'Bracket'}>
          {rounds ? (
            <RoundPairings rounds={rounds} names={teamNames} gamesToWin={gamesToWin ?? 1} screen />
          ) : (
            <Bracket
              tournament={tournament}
              gamesToWin={gamesToWin}
              sources={sources}
              fit={screenBracket(tournament)}
              single={single}
              playoff={playoff}
              {...(drawn ? { drawn } : {})}
            />
          )}
        </section>
        <section class="panel panel--tables" aria-label={showsRules ? 'Rules in force' : 'Live tables'}>
          <LiveTables tournament={tournament} liveGames={liveGames} teamNames={teamNames} now={now} gamesToWin={gamesToWin} rules={rules} />
        </section>
        <HighlightsTurn tournamentId={tournament.tournamentId} highlights={highlights ?? []} />
      </div>
      {/* Which panel is up: the dots run on the same clock as the panels. */}
      <ol class="panel-dots" aria-hidden="true">
        <li>Standings</li>
        <li>{pairings ?? 'Bracket'}</li>
        <li data-shows={showsRules ? 'rules' : 'tables'}>{showsRules ? 'Rules' : 'Live tables'}</li>
        <li class="panel-dot--highlights">Highlights</li>
      </ol>
    </div>
  );
}

/**
 * The highlights panel. It has no turn of its own in the CSS rotation: screen-highlights.js gives
 * it one, between two rounds of the others, only when something happened since it last showed.
 */
export function HighlightsTurn({ tournamentId, highlights }: { tournamentId: string; highlights: readonly Highlight[] }) {
  return (
    <section class="panel panel--highlights" aria-label="Highlights" data-tournament={tournamentId}>
      <HighlightsPanel highlights={highlights} />
    </section>
  );
}

export interface TickerProps {
  tournament: Pick<TournamentModel, 'latest' | 'teams' | 'matches'>;
}

/** The latest results, newest first, one at a time along the screen's header. */
export function Ticker({ tournament }: TickerProps) {
  const latest = tournament.latest.slice(0, TICKER_LENGTH);
  return (
    <div id={TICKER_ID} class="ticker" role="region" aria-label="Latest results">
      {latest.length === 0 ? (
        <p class="ticker-empty">Results appear here as matches finish.</p>
      ) : (
        <ol class={`ticker-items ticker-items--count-${latest.length}`}>
          {latest.map((item) => (
            <li data-position={item.position}>{newsText(item, tournament)}</li>
          ))}
        </ol>
      )}
    </div>
  );
}

export interface LiveTablesProps {
  tournament: Pick<TournamentModel, 'matches'>;
  liveGames: GameModel[];
  teamNames: Readonly<Record<string, string>>;
  now?: Date;
  /** Games a team must win to take a match: in best of 1 a table's line gives the game's score, not games won. */
  gamesToWin?: number | undefined;
  /** Before the start: the rules to show while no table plays. */
  rules?: ScreenRules | undefined;
}

// What a table asks first, and every house rule: the whole sheet does not fit the screen's type.
const SCREEN_RULES = new Set(['match', 'game', 'deck', 'trumps', 'bid-range', 'nil', 'blind-bid', 'bags', 'renege']);

/**
 * How the tables in play are drawn: up to 4 as tables with their seats and the trick on the
 * cloth, up to 8 as score cards, more as one line each.
 */
export function tablesLayout(count: number): 'seats' | 'cards' | 'lines' {
  return count <= 4 ? 'seats' : count <= 8 ? 'cards' : 'lines';
}

/** Every table in play, each with its table number, round, match score and clock. */
export function LiveTables({ tournament, liveGames, teamNames, now, gamesToWin, rules }: LiveTablesProps) {
  if (rules && liveGames.length === 0) {
    const sheet = {
      ...rules.sheet,
      parts: rules.sheet.parts.map((p) => ({ ...p, lines: p.lines.filter((l) => l.house || SCREEN_RULES.has(l.key)) })).filter((p) => p.lines.length > 0),
    };
    return (
      <section id={LIVE_TABLES_ID} class="live-tables screen-rules" data-shows="rules" aria-labelledby="live-tables-title">
        <h2 id="live-tables-title">Rules in force</h2>
        <RulesSheetBody sheet={sheet} rulebook={rules.rulebook} />
        <p class="screen-rules-more">Every rule: {rules.address}</p>
      </section>
    );
  }
  const matchOf = new Map<string, MatchModel>();
  for (const match of tournament.matches) for (const gameId of match.games) matchOf.set(gameId, match);
  const layout = tablesLayout(liveGames.length);
  return (
    <section id={LIVE_TABLES_ID} class="live-tables" aria-labelledby="live-tables-title">
      <h2 id="live-tables-title">Live tables</h2>
      {liveGames.length === 0 ? (
        <p class="empty">No games in play right now.</p>
      ) : (
        <ol class={`live-table-list live-table-list--${layout} live-table-list--count-${Math.min(liveGames.length, 8)}`}>
          {liveGames.map((game) => (
            <li class="live-table">
              <ScreenTable
                game={game}
                match={matchOf.get(game.gameId) ?? null}
                teamNames={teamNames}
                layout={layout}
                now={now ?? new Date()}
                singleGame={gamesToWin === 1}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

interface ScreenTableProps {
  game: GameModel;
  match: MatchModel | null;
  teamNames: Readonly<Record<string, string>>;
  layout: 'seats' | 'cards' | 'lines';
  now: Date;
  /** The match is one game: its score is the match score. */
  singleGame: boolean;
}

/** One table in play, in a box of fixed height: table, round and match score, clock, both teams' scores, and what is happening. */
function ScreenTable({ game, match, teamNames, layout, now, singleGame }: ScreenTableProps) {
  const name = (team: Team) => teamNames[game.teams[team]] ?? game.teams[team];
  const slot = (team: Team) => (match ? match.teams.indexOf(game.teams[team]) : -1);
  const gamesWon = (team: Team) => (match && slot(team) >= 0 ? match.gamesWon[slot(team)]! : 0);
  const openClaims = game.claims.filter((c) => !c.ruling).length;
  // The match's result waits for a ruling: the room is told so, and for how long.
  const ruling = match ? waitingParts(match, now.toISOString()) : null;
  // A progressive evening's table plays a round of 4 hands: no match, no games won.
  const round = match?.side === 'table' ? match.round : null;
  const classes = ['screen-table', `screen-table--${layout}`];
  if (round !== null) classes.push('screen-table--progressive');
  if (openClaims > 0) classes.push('is-under-review');
  if (game.winner) classes.push('is-over');
  return (
    <article class={classes.join(' ')} data-game={game.gameId} aria-label={`Table ${match?.table ?? ''}: ${name('NS')} against ${name('EW')}`}>
      <header class="screen-table-head">
        <span class="table-number">Table {match?.table ?? '—'}</span>
        <span class="table-round">{round !== null ? roundHandWords(round, game) : `${match?.label ?? `Game ${game.number}`} · game ${game.number}`}</span>
        {clockOfGame(match?.clock, game.gameId) ? <Clock clock={clockOfGame(match?.clock, game.gameId)!} now={now} label="Left" /> : null}
      </header>
      <dl class="screen-scores">
        {TEAMS.map((team) => (
          <div class={`screen-score screen-score--${team.toLowerCase()}${game.winner === team ? ' is-winner' : ''}`}>
            <dt class="team-name">{name(team)}</dt>
            {round !== null ? null : (
              <dd class="games" title="Games won in this match">
                <span class="visually-hidden">Games won: </span>
                {gamesWon(team)}
              </dd>
            )}
            <dd class="score">
              <span class="visually-hidden">Score </span>
              {pointsText(game.score[team])}
            </dd>
          </div>
        ))}
      </dl>
      <p class="screen-table-state">
        {match && round === null ? (
          <span class="match-score">
            {singleGame ? `game score ${pointsPair(game.score.NS, game.score.EW)}` : `games won ${record(gamesWon('NS'), gamesWon('EW'))}`} ·{' '}
          </span>
        ) : null}
        {ruling ? (
          <span data-awaiting-ruling>
            <WaitingLine parts={ruling} />
          </span>
        ) : (
          stateOf(game, name)
        )}
      </p>
      {layout === 'seats' ? <Seats game={game} /> : null}
    </article>
  );
}

/** What is happening at a table, in a few words. */
function stateOf(game: GameModel, name: (team: Team) => string): string {
  const claims = game.claims.filter((c) => !c.ruling);
  if (claims.length > 0) return `Under review: renege claimed against ${SEAT_NAMES[claims[0]!.seat]}`;
  if (game.winner) return `${name(game.winner)} won ${pointsPair(game.score[game.winner], game.score[game.winner === 'NS' ? 'EW' : 'NS'])}`;
  const current = game.current;
  if (!current) return `Hand ${game.hands.length + 1} to deal`;
  const bidder = nextBidder(game);
  if (bidder) return `Hand ${current.number} · bidding, ${SEAT_NAMES[bidder]} to bid`;
  if (current.tricks) return `Hand ${current.number} · tricks counted`;
  let so;
  try {
    so = handSoFar(game);
  } catch {
    so = null;
  }
  const trick = so ? Math.max(1, so.tricks.length + (so.tricks[so.tricks.length - 1]?.cards.length === 4 ? 1 : 0)) : 1;
  return `Hand ${current.number} · trick ${Math.min(13, trick)}${so?.next ? `, ${SEAT_NAMES[so.next]} to play` : ''}`;
}

/** The four seats with their bids and tricks, around the trick on the cloth, in fixed places. */
function Seats({ game }: { game: GameModel }) {
  const current = game.current;
  let so = null;
  try {
    so = current && current.plays.length > 0 ? handSoFar(game) : null;
  } catch {
    so = null;
  }
  const last = so ? so.tricks[so.tricks.length - 1] : undefined;
  const cards = new Map<Seat, string>();
  if (current && last) {
    const played = current.plays[so!.tricks.length - 1] ?? [];
    played.forEach((card, i) => cards.set(SEATS[(SEATS.indexOf(last.leader) + i) % 4]!, card));
  }
  const turn = current ? (nextBidder(game) ?? (current.tricks ? null : (so?.next ?? null))) : null;
  const taken = current?.tricks ?? so?.taken ?? null;
  return (
    <div class="screen-seats">
      {SEATS.map((seat) => {
        const bid = current?.bids[seat];
        return (
          <div class={`screen-seat screen-seat--${seat}${seat === turn ? ' is-turn' : ''}`} data-seat={seat}>
            <span class="seat-name">{SEAT_NAMES[seat]}</span>
            <span class="seat-bid">{bid === undefined ? 'no bid yet' : `bid ${String(bid)}, won ${taken ? taken[seat] : 0}`}</span>
            <span class="seat-card">{cards.has(seat) ? <CardFace name={cards.get(seat)!} /> : null}</span>
          </div>
        );
      })}
    </div>
  );
}
