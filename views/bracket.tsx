/**
 * The bracket as the room follows it: one column per round, one block per side. Rendered
 * whole for the bracket page, the venue screen and the SSE fragment, since a single result
 * moves teams in several columns at once.
 */
import type { MatchModel, TournamentModel } from '../events/read-models.ts';

export const BRACKET_ID = 'bracket';

const SIDE_ORDER = ['winners', 'losers', 'final', 'third-place'];
const SIDE_TITLES: Record<string, string> = {
  winners: 'Winners’ bracket',
  losers: 'Losers’ bracket',
  final: 'Final',
  'third-place': 'Third place',
};

export interface BracketProps {
  tournament: Pick<TournamentModel, 'teams' | 'matches'>;
  /** Games a team must win to take a match (2 = best of 3); the read model does not carry it. */
  gamesToWin?: number;
  /**
   * The venue screen's window onto a large bracket: at most this many matches in a round and
   * `rounds` rounds a side, from the first round still being played. Pages show every match.
   */
  fit?: { matches: number; rounds: number };
}

/** Every match of the event, grouped by side and round, with live and disputed matches flagged. */
export function Bracket({ tournament, gamesToWin = 1, fit }: BracketProps) {
  const names = new Map(tournament.teams.map((t) => [t.teamId, t.name]));
  const sides = fit ? fitToScreen(groupBySide(tournament.matches), fit) : groupBySide(tournament.matches);
  return (
    <section id={BRACKET_ID} class="bracket" aria-labelledby="bracket-title">
      <h2 id="bracket-title">Bracket</h2>
      {sides.length === 0 ? <p class="empty">The bracket is drawn when the tournament starts.</p> : null}
      {sides.map(({ side, rounds }) => {
        const titleId = `bracket-${side}-title`;
        return (
          <section class={`bracket-side bracket-side--${side}`} aria-labelledby={titleId}>
            <h3 id={titleId}>{SIDE_TITLES[side] ?? side}</h3>
            <div class="bracket-scroll" role="region" aria-labelledby={titleId} tabindex={0}>
              <ol class="rounds">
                {rounds.map(({ round, matches, hidden = 0 }) => (
                  <li class="round">
                    {/* A side with one round (the final) needs no round heading. */}
                    {rounds.length > 1 ? <h4 class="round-title">Round {round}</h4> : null}
                    <ol class="matches">
                      {matches.map((match) => (
                        <li>
                          <MatchCard match={match} names={names} gamesToWin={gamesToWin} />
                        </li>
                      ))}
                    </ol>
                    {hidden > 0 ? <p class="more-matches">+ {hidden} more on the bracket page</p> : null}
                  </li>
                ))}
              </ol>
            </div>
          </section>
        );
      })}
    </section>
  );
}

interface MatchCardProps {
  match: MatchModel;
  names: ReadonlyMap<string, string>;
  gamesToWin: number;
}

function MatchCard({ match, names, gamesToWin }: MatchCardProps) {
  // A bye is no contest: it has no games to count.
  const showGames = match.status !== 'bye' && (gamesToWin > 1 || match.games.length > 0);
  const classes = ['match', `match--${match.status}`];
  if (match.underReview) classes.push('is-under-review');
  return (
    <article class={classes.join(' ')} data-match={match.matchId} aria-label={`Match ${match.label}`}>
      <header class="match-head">
        <span class="match-label">{match.label}</span>
        {match.status === 'live' ? (
          <span class="badge badge--live">Live{match.table !== null ? ` · Table ${match.table}` : ''}</span>
        ) : null}
        {match.status === 'forfeit' ? <span class="badge badge--forfeit">Forfeit</span> : null}
        {match.underReview ? <span class="badge badge--review">Under review</span> : null}
      </header>
      <ul class="match-teams">
        {match.teams.map((teamId, slot) => {
          const won = teamId !== null && match.winner === teamId;
          return (
            <li class={teamClass(teamId, won, match.status)}>
              <span class="slot-name">{slotName(teamId, match.status, names)}</span>
              {won ? <span class="visually-hidden"> (winner)</span> : null}
              {showGames && teamId !== null ? (
                <span class="games-won">
                  {match.gamesWon[slot]}
                  <span class="visually-hidden"> {match.gamesWon[slot] === 1 ? 'game' : 'games'} won</span>
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {gamesToWin > 1 && match.status !== 'bye' ? <p class="match-format">Best of {2 * gamesToWin - 1}</p> : null}
    </article>
  );
}

/** An empty slot is a bye once the draw has settled the match, and not yet known otherwise. */
function slotName(teamId: string | null, status: MatchModel['status'], names: ReadonlyMap<string, string>): string {
  if (teamId === null) return status === 'bye' ? 'bye' : 'TBD';
  return names.get(teamId) ?? teamId;
}

function teamClass(teamId: string | null, won: boolean, status: MatchModel['status']): string {
  if (teamId === null) return status === 'bye' ? 'slot is-bye' : 'slot is-tbd';
  return won ? 'slot is-winner' : 'slot';
}

interface SideGroup {
  side: string;
  /** `hidden`: matches of the round left off the screen's window. */
  rounds: { round: number; matches: MatchModel[]; hidden?: number }[];
}

const DECIDED: ReadonlySet<MatchModel['status']> = new Set(['done', 'bye', 'forfeit']);
// On a crowded screen the matches people are watching come first.
const SCREEN_ORDER: Record<MatchModel['status'], number> = { live: 0, ready: 1, waiting: 2, done: 3, forfeit: 4, bye: 5 };

/**
 * The part of a bracket a TV can show: each side from its first round with a match still to
 * play (its last round once all are decided), a few rounds on, each round cut to the matches
 * that fit, live ones first. The rest stays on the bracket page.
 */
function fitToScreen(sides: SideGroup[], fit: { matches: number; rounds: number }): SideGroup[] {
  return sides.map(({ side, rounds }) => {
    const open = rounds.findIndex((r) => r.matches.some((m) => !DECIDED.has(m.status)));
    const first = open === -1 ? Math.max(0, rounds.length - fit.rounds) : open;
    return {
      side,
      rounds: rounds.slice(first, first + fit.rounds).map(({ round, matches }) => {
        if (matches.length <= fit.matches) return { round, matches };
        const shown = [...matches].sort((a, b) => SCREEN_ORDER[a.status] - SCREEN_ORDER[b.status]).slice(0, fit.matches);
        // Shown in bracket order, so neighbouring matches still sit side by side.
        return { round, matches: matches.filter((m) => shown.includes(m)), hidden: matches.length - fit.matches };
      }),
    };
  });
}

function groupBySide(matches: readonly MatchModel[]): SideGroup[] {
  const bySide = new Map<string, Map<number, MatchModel[]>>();
  for (const match of matches) {
    let rounds = bySide.get(match.side);
    if (!rounds) bySide.set(match.side, (rounds = new Map()));
    const list = rounds.get(match.round);
    if (list) list.push(match);
    else rounds.set(match.round, [match]);
  }
  // Known sides in the order a bracket is read; any other side after them, as it came.
  const rank = (side: string) => {
    const i = SIDE_ORDER.indexOf(side);
    return i === -1 ? SIDE_ORDER.length : i;
  };
  return [...bySide.entries()]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([side, rounds]) => ({
      side,
      rounds: [...rounds.entries()].sort(([a], [b]) => a - b).map(([round, list]) => ({ round, matches: list })),
    }));
}
