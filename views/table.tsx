/**
 * One table's game as the players, the judge and the room see it: who deals, what was bid,
 * the trick on the cloth, the score pad and the running score. Rendered whole for the table
 * page and pushed whole over SSE, so a card played redraws the trick and the counts together.
 */
import { SeatList, roundHandWords } from './progressive-panels.tsx';
import { SEAT_NAMES, type Team, SEATS, TEAMS, seatsOf } from '../engine/cards.ts';
import { misdealWords } from '../engine/rule-lines.ts';
import { resolveRules } from '../engine/rules.ts';
import type { PlayResult } from '../engine/trick.ts';
import { dealerOfNextHand, handSoFar, nextBidder } from '../events/game-projection.ts';
import type { BidValue } from '../events/event-catalogue.ts';
import type { GameModel, HandInProgress, HandRow } from '../events/read-models.ts';
import { CardFace } from './card-face.tsx';
import { pointsPair, pointsText } from './team-standing.ts';
import { Clock, clockScope } from './match-clock.tsx';
import { replayLink } from '../events/addresses.ts';
import { type MatchClock, clockOfGame } from '../events/clocks.ts';
import type { GameUndoing } from '../events/reopening.ts';

/** The id of a table's live region: the SSE target for that game's updates. */
export function tableId(gameId: string): string {
  return `table-${gameId}`;
}

const END_REASONS: Record<string, string> = {
  boston: 'took all 13 tricks',
  'set-out': 'the other team was set out',
  target: 'reached the target',
  hands: 'led after the last hand',
  time: 'led when time was called',
};

export type { MatchClock };

export interface TableViewProps {
  game: GameModel;
  /** Team id → team name. */
  teamNames: Readonly<Record<string, string>>;
  clock?: MatchClock | null;
  /** The moment the remaining time is counted from; the render time when not given. */
  now?: Date;
  /** The round of a progressive evening this table's game plays: its hands are counted in the round, not games. */
  round?: number | null;
  /** A later ruling that voided the game, or took its result back so play resumes. */
  undoing?: GameUndoing | null;
}

/** A live table: seats, bids, trick in progress, tricks taken, scores, score pad, clock and chart. */
export function TableView({ game, teamNames, clock, now, round, undoing }: TableViewProps) {
  const name = (team: Team) => teamNames[game.teams[team]] ?? game.teams[team];
  const current = game.current;
  const play = current ? replayCurrent(game, current) : null;
  const openClaims = game.claims.filter((c) => !c.ruling);
  const classes = ['table-view'];
  if (game.winner || game.abandoned) classes.push('is-over');
  if (openClaims.length > 0) classes.push('is-under-review');
  const voided = undoing?.kind === 'voided';
  if (voided) classes.push('is-voided');
  const bagsCounted = resolveRules(game.rules).options.bagsCounted;
  const headingId = `${tableId(game.gameId)}-title`;
  // A voided game is played no more: no clock runs for it.
  const timer = voided ? null : clockOfGame(clock, game.gameId);

  return (
    <section id={tableId(game.gameId)} class={classes.join(' ')} aria-labelledby={headingId}>
      <header class="table-head">
        <h2 id={headingId}>
          <span class="team-ns">{name('NS')}</span> <span class="vs">vs</span> <span class="team-ew">{name('EW')}</span>
        </h2>
        <p class="table-meta">{round ? roundHandWords(round, game) : `Game ${game.number}${current ? ` · Hand ${current.number}` : ''}`}</p>
        {timer ? <Clock clock={timer} now={now ?? new Date()} scope={clockScope(timer, game.number)} /> : null}
        <SeatList seats={game.seats} />
      </header>

      {undoing ? (
        <p class={`notice notice--${undoing.kind}`} role="status" data-undoing={undoing.kind} data-ruling-position={String(undoing.position)}>
          <strong>{voided ? 'Voided' : 'Reopened'}</strong> by {undoing.ruling} (entry {undoing.position} of the ledger):{' '}
          {voided ? 'this game no longer counts for its match, the standings or the statistics.' : 'its result no longer stands, and play resumes.'}
        </p>
      ) : (
        <GameStatus game={game} name={name} />
      )}

      {game.problem ? (
        // The pad below stops at the last hand that could be scored; the judge needs to know why.
        <p class="notice notice--review" role="status">
          <strong>Score held:</strong> {game.problem}
        </p>
      ) : null}

      {openClaims.length > 0 ? (
        <p class="notice notice--review" role="status">
          <strong>Under review:</strong>{' '}
          {openClaims.map((c) => `renege claimed against ${SEAT_NAMES[c.seat]}, hand ${c.hand}${c.trick !== null ? `, trick ${c.trick}` : ''}`).join('; ')}
        </p>
      ) : null}

      <dl class="team-scores">
        {TEAMS.map((team) => (
          <div class={`team-score team-score--${team.toLowerCase()}${game.winner === team ? ' is-winner' : ''}`}>
            <dt>
              {name(team)} <span class="team-seats">({team})</span>
            </dt>
            <dd class="score">
              <span class="visually-hidden">Score </span>
              {pointsText(game.score[team])}
            </dd>
            <dd class="bags">
              {/* Where overtricks are not counted as bags, no bag is spoken of. */}
              {[
                ...(bagsCounted ? [`${game.bags[team]} ${game.bags[team] === 1 ? 'bag' : 'bags'}`] : []),
                ...(game.sets[team] > 0 ? [`${game.sets[team]} ${game.sets[team] === 1 ? 'set' : 'sets'}`] : []),
              ].join(' · ')}
            </dd>
          </div>
        ))}
      </dl>

      {current && !voided ? (
        <CurrentHand game={game} current={current} play={play} />
      ) : game.winner || game.abandoned || voided ? null : (
        <p class="table-waiting">
          Waiting for the next deal. {SEAT_NAMES[dealerOfNextHand(game)]} deals hand {game.hands.length + 1}.
        </p>
      )}

      <ScorePad game={game} name={name} />
      <ScoreChart game={game} teamNames={teamNames} />
    </section>
  );
}

function GameStatus({ game, name }: { game: GameModel; name: (team: Team) => string }) {
  if (game.abandoned) return <p class="notice">This game was abandoned.</p>;
  if (game.winner) {
    // A claim still open holds the result: a ruling can move tricks, and so the winner.
    const waiting = game.claims.filter((claim) => !claim.ruling).length;
    const why = game.reason ? (END_REASONS[game.reason] ?? game.reason) : null;
    return (
      <p class="notice notice--result">
        <strong>{name(game.winner)}</strong> won{why ? ` (${why})` : ''}, {pointsPair(game.score[game.winner], game.score[game.winner === 'NS' ? 'EW' : 'NS'])}
        {waiting > 0 ? `, unless the judge’s ruling on the ${waiting === 1 ? 'claim' : `${waiting} claims`} still open changes it.` : '.'}
      </p>
    );
  }
  if (game.timeCalled !== null) {
    return <p class="notice notice--time">Time called: this hand is the last unless the score is tied.</p>;
  }
  return null;
}

interface CurrentHandProps {
  game: GameModel;
  current: HandInProgress;
  play: PlayResult | null;
}

/** The hand on the table: a compass of seats around the trick in progress. */
function CurrentHand({ game, current, play }: CurrentHandProps) {
  const bidsIn = SEATS.filter((s) => current.bids[s] !== undefined).length;
  const taken = current.tricks ?? play?.taken ?? null;
  const lastTrick = play && play.tricks.length > 0 ? play.tricks[play.tricks.length - 1]! : null;
  const trickNumber = play ? play.tricks.length : 0;
  const trickDone = lastTrick !== null && lastTrick.cards.length === 4;
  const turn = bidsIn < 4 ? nextBidder(game) : current.tricks ? null : (play?.next ?? null);
  const phase = bidsIn < 4 ? 'Bidding' : current.tricks ? 'Tricks counted' : trickNumber > 0 ? `Trick ${trickNumber}` : 'Lead';

  return (
    <section class="hand" aria-label={`Hand ${current.number}`}>
      <p class="hand-phase">
        <a href={replayLink(game.gameId, current.number)}>Hand {current.number}</a> · {phase}
      </p>
      <div class="compass">
        {SEATS.map((seat) => {
          const classes = ['seat', `seat--${seat}`, `seat--${seat === 'N' || seat === 'S' ? 'ns' : 'ew'}`];
          if (seat === current.dealer) classes.push('is-dealer');
          if (seat === turn) classes.push('is-turn');
          const bid = current.bids[seat];
          return (
            <div class={classes.join(' ')} data-seat={seat}>
              <p class="seat-name">
                {SEAT_NAMES[seat]}
                {seat === current.dealer ? (
                  <span class="dealer-chip" title="Dealer">
                    <span aria-hidden="true">D</span>
                    <span class="visually-hidden"> (dealer)</span>
                  </span>
                ) : null}
                {seat === turn ? <span class="visually-hidden"> (to play)</span> : null}
              </p>
              {game.seats[seat] ? <p class="player">{game.seats[seat]}</p> : null}
              <p class="seat-line">
                <span class="seat-bid">Bid {bid === undefined ? '—' : formatBid(bid)}</span>
                <span class="seat-tricks">Tricks {taken ? taken[seat] : '—'}</span>
              </p>
            </div>
          );
        })}
        <div class="trick" aria-live="off">
          {lastTrick ? (
            <>
              <p class="trick-title">
                {trickDone
                  ? `Trick ${trickNumber} to ${SEAT_NAMES[play!.winners[trickNumber - 1]!]}`
                  : `Trick ${trickNumber}, ${SEAT_NAMES[lastTrick.leader]} led`}
              </p>
              <ol class="trick-cards">
                {current.plays[trickNumber - 1]!.map((card, i) => {
                  const seat = SEATS[(SEATS.indexOf(lastTrick.leader) + i) % 4]!;
                  return (
                    <li class={`trick-card trick-card--${seat}`} data-seat={seat}>
                      <span class="visually-hidden">{SEAT_NAMES[seat]}: </span>
                      <CardFace name={card} />
                    </li>
                  );
                })}
              </ol>
            </>
          ) : (
            <p class="trick-title">{bidsIn < 4 ? `${bidsIn} of 4 bids in` : 'No cards played yet'}</p>
          )}
        </div>
      </div>
    </section>
  );
}

/**
 * Replays the plays so far with the engine, for the tricks each seat has taken, the trick on
 * the table and whose turn it is. A record the engine cannot replay shows no counts rather
 * than wrong ones; the projection reports such a record, not the view.
 */
/**
 * The hand in progress as the projection reads it, or null before the first card, and for plays
 * the engine cannot replay (a ledger written by something else), which the view shows as unknown.
 */
function replayCurrent(game: GameModel, current: HandInProgress): PlayResult | null {
  if (current.plays.length === 0) return null;
  try {
    return handSoFar(game);
  } catch {
    return null;
  }
}

function formatBid(bid: BidValue): string {
  return String(bid);
}

/** A team's bid as the pad writes it: the partners' bids, e.g. "4 / nil". */
function teamBid(row: HandRow, team: Team): string {
  if (!row.bids) return '—';
  const [a, b] = seatsOf(team);
  const bids = [row.bids[a], row.bids[b]];
  return bids.map((bid) => (bid === undefined ? '—' : formatBid(bid))).join(' / ');
}

/** The tricks a team took, or, where a renege ruling moved some, those that count, then those taken. */
function teamTricks(row: HandRow, team: Team, ruled: boolean): string {
  if (!row.tricks) return '—';
  const [a, b] = seatsOf(team);
  const taken = row.tricks[a] + row.tricks[b];
  const counted = row.outcome?.[team].counted;
  return !ruled || counted === undefined || counted === taken ? String(taken) : `${counted} (took ${taken})`;
}

/** Whether a renege ruling in force moved tricks of the hand. */
const ruledOn = (game: GameModel, hand: number) => game.claims.some((c) => c.hand === hand && c.ruling !== undefined && !c.ruling.withdrawn);

function rowNotes(row: HandRow): string {
  const notes: string[] = [];
  if (row.misdeal) notes.push(`Misdeal: ${misdealWords(row.misdeal)}`);
  for (const r of row.reneges) notes.push(`Renege by ${SEAT_NAMES[r.seat]}, trick ${r.trick}`);
  for (const l of row.illegalLeads) notes.push(`Illegal lead by ${SEAT_NAMES[l.seat]}, trick ${l.trick}`);
  return notes.join('; ');
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : pointsText(n);
}

/** A pad column's name, in full where there is room and shortened on a phone, so both teams' columns fit its width (the dealer's column is left out there: the replay names each hand's dealer). */
function PadLabel({ full, short }: { full: string; short: string }) {
  return (
    <>
      <span class="pad-label-full">{full}</span>
      <abbr class="pad-label-short" title={full}>
        {short}
      </abbr>
    </>
  );
}

/** The score pad: one row per hand, bid, tricks, points, running score and bags for each team. */
function ScorePad({ game, name }: { game: GameModel; name: (team: Team) => string }) {
  const padId = `${tableId(game.gameId)}-pad`;
  const bags = resolveRules(game.rules).options.bagsCounted;
  return (
    <section class="score-pad" aria-labelledby={padId}>
      <h3 id={padId}>Score pad</h3>
      {game.rows.length === 0 ? (
        <p class="empty">No hands scored yet.</p>
      ) : (
        <div class="table-scroll" role="region" aria-labelledby={padId} tabindex={0}>
          <table class="pad">
            {/* Columns by name, so a phone can fold away each hand's points without breaking the team heads' spans. */}
            <colgroup>
              <col />
              <col class="dealer" />
              {TEAMS.map(() => (
                <>
                  <col />
                  <col />
                  <col class="pts" />
                  <col />
                  {bags ? <col /> : null}
                </>
              ))}
              <col />
            </colgroup>
            <thead>
              <tr>
                <td></td>
                <td class="dealer"></td>
                {TEAMS.map((team) => (
                  <th scope="colgroup" colspan={bags ? 5 : 4} class={`team-head team-head--${team.toLowerCase()}`}>
                    {name(team)}
                  </th>
                ))}
                <td></td>
              </tr>
              <tr>
                <th scope="col" class="num">
                  <PadLabel full="Hand" short="#" />
                </th>
                <th scope="col" class="dealer">
                  Dealer
                </th>
                {TEAMS.map(() => (
                  <>
                    <th scope="col">Bid</th>
                    <th scope="col" class="num">
                      <PadLabel full="Tricks" short="Tks" />
                    </th>
                    <th scope="col" class="num pts">
                      <PadLabel full="Points" short="Pts" />
                    </th>
                    <th scope="col" class="num">
                      Score
                    </th>
                    {bags ? (
                      <th scope="col" class="num">
                        Bags
                      </th>
                    ) : null}
                  </>
                ))}
                <th scope="col" class="notes">
                  Notes
                </th>
              </tr>
            </thead>
            <tbody>
              {game.rows.map((row) => (
                <tr class={row.misdeal ? 'is-misdeal' : undefined}>
                  <th scope="row" class="num">
                    <a href={replayLink(game.gameId, row.number)} title={`Replay hand ${row.number} card by card`}>
                      {row.number}
                    </a>
                  </th>
                  <td class="dealer">{row.dealer}</td>
                  {TEAMS.map((team) => (
                    <>
                      <td class="bid">{teamBid(row, team)}</td>
                      <td class="num">{teamTricks(row, team, ruledOn(game, row.number))}</td>
                      <td class="num pts">{signed(row[team].points)}</td>
                      <td class="num total">{pointsText(row[team].score)}</td>
                      {bags ? <td class="num">{row[team].bags}</td> : null}
                    </>
                  ))}
                  <td class="notes">{rowNotes(row)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {game.corrections.length > 0 ? (
        <ul class="corrections">
          {game.corrections.map((c) => (
            <li>
              Judge’s correction by {c.judge}: {TEAMS.map((t) => `${name(t)} ${signed(c.points[t])}`).join(', ')} — {c.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export interface ScoreChartProps {
  game: Pick<GameModel, 'gameId' | 'teams' | 'rows' | 'score'>;
  /** Team id → team name; the chart falls back to the seats' team (NS, EW) without it. */
  teamNames?: Readonly<Record<string, string>>;
}

// The chart's own coordinate space; CSS scales the SVG to its box.
// Narrow on purpose: on a 390px phone the chart shrinks by only a quarter, so its labels stay readable.
const CHART = { width: 480, height: 300, left: 64, right: 16, top: 60, bottom: 50 };

/** Each team's running score hand by hand, as an inline SVG line chart with a legend. */
export function ScoreChart({ game, teamNames = {} }: ScoreChartProps) {
  const rows = game.rows;
  const label = (team: Team) => teamNames[game.teams[team]] ?? team;
  const titleId = `${tableId(game.gameId)}-chart-title`;
  const descId = `${tableId(game.gameId)}-chart-desc`;
  if (rows.length === 0) return <p class="chart-empty">The score chart starts after the first hand.</p>;

  const values = rows.flatMap((r) => [r.NS.score, r.EW.score]);
  const ticks = scoreTicks(Math.min(0, ...values), Math.max(0, ...values));
  const yMin = ticks[0]!;
  const yMax = ticks[ticks.length - 1]!;
  const plotW = CHART.width - CHART.left - CHART.right;
  const plotH = CHART.height - CHART.top - CHART.bottom;
  const x = (i: number) => CHART.left + (rows.length === 1 ? plotW / 2 : (i * plotW) / (rows.length - 1));
  const y = (v: number) => CHART.top + plotH - ((v - yMin) / (yMax - yMin)) * plotH;
  const points = (team: Team) => rows.map((r, i) => `${round1(x(i))},${round1(y(r[team].score))}`).join(' ');
  // Label every hand when there is room, else about eight evenly spaced hands.
  const every = Math.max(1, Math.ceil(rows.length / 8));
  const last = rows[rows.length - 1]!;

  return (
    <figure class="score-chart">
      <svg class="chart" viewBox={`0 0 ${CHART.width} ${CHART.height}`} role="img" aria-labelledby={`${titleId} ${descId}`}>
        <title id={titleId}>
          Running score by hand: {label('NS')} and {label('EW')}
        </title>
        <desc id={descId}>
          After hand {last.number}: {label('NS')} {last.NS.score}, {label('EW')} {last.EW.score}.
        </desc>
        <g class="chart-grid">
          {ticks.map((t) => (
            <>
              <line x1={CHART.left} x2={CHART.width - CHART.right} y1={y(t)} y2={y(t)} class={t === 0 ? 'zero' : undefined} />
              <text x={CHART.left - 8} y={y(t) + 5} text-anchor="end" class="tick">
                {t}
              </text>
            </>
          ))}
        </g>
        <g class="chart-x">
          {rows.map((r, i) =>
            i % every === 0 || i === rows.length - 1 ? (
              <text x={round1(x(i))} y={CHART.top + plotH + 22} text-anchor="middle" class="tick">
                {r.number}
              </text>
            ) : null,
          )}
        </g>
        <text x={CHART.left + plotW / 2} y={CHART.height - 6} text-anchor="middle" class="axis-label">
          Hand
        </text>
        <text x={-(CHART.top + plotH / 2)} y={16} transform="rotate(-90)" text-anchor="middle" class="axis-label">
          Score
        </text>
        {TEAMS.map((team) => (
          <polyline class={`series series--${team.toLowerCase()}`} data-team={team} points={points(team)} />
        ))}
        <g class="chart-legend">
          {/* One line per team, so long team names never run into each other. */}
          {TEAMS.map((team, i) => {
            const ly = 14 + i * 22;
            return (
              <g class={`legend-item legend-item--${team.toLowerCase()}`}>
                <line x1={CHART.left} x2={CHART.left + 28} y1={ly} y2={ly} class={`series series--${team.toLowerCase()}`} />
                <text x={CHART.left + 36} y={ly + 5} class="legend-text">
                  {truncate(label(team), 32)} ({team})
                </text>
              </g>
            );
          })}
        </g>
      </svg>
    </figure>
  );
}

/** Evenly spaced round values covering [min, max]: steps of 1, 2 or 5 times a power of ten. */
function scoreTicks(min: number, max: number): number[] {
  if (max - min < 10) max = min + 10;
  const rough = (max - min) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  const ticks: number[] = [];
  for (let t = Math.floor(min / step) * step; t < max + step; t += step) {
    ticks.push(t);
    if (t >= max) break;
  }
  return ticks;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
