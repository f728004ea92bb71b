/**
 * The bracket as the room follows it: one column per round, one block per side, with lines
 * from each match to the one its winner plays next. Rendered whole for the bracket page, the
 * venue screen and the SSE fragment, since a single result moves teams in several columns at
 * once.
 *
 * Each side is a CSS grid: a match spans the grid rows of the matches that feed it, so it sits
 * level with the middle of its two feeders and the connector lines are drawn by CSS alone from
 * a class naming how the match is fed (the page's policy allows no inline styles).
 *
 * A bracket drawn round by round (blp-2024) is drawn as its rounds come: the rounds drawn so
 * far, each bye with the high card that won it, and the next round shown as to be drawn.
 */
import type { BracketState } from '../engine/bracket.ts';
import { nextRoundPlan } from '../engine/bracket-rounds.ts';
import type { MatchModel, TournamentModel } from '../events/read-models.ts';
import type { Child } from 'hono/jsx';
import { losersPlayFor } from '../events/standings.ts';
import { teamLink } from '../events/addresses.ts';
import type { SlotSources } from '../engine/bracket.ts';

export const BRACKET_ID = 'bracket';

/** A bracket drawn round by round: the card that won each bye (by the bye's match), and the round still to be drawn. */
export interface RoundDraws {
  byeCards: Readonly<Record<string, string | null>>;
  next: { round: number; final: boolean } | null;
}

/** The draws of a folded tournament's bracket when it is drawn round by round; undefined otherwise. */
export function bracketDraws(state: {
  format: { roundByRound?: boolean };
  model: Pick<TournamentModel, 'status'>;
  bracket: BracketState | null;
  roundDraws?: readonly { match: string; card: string | null }[];
}): RoundDraws | undefined {
  if (!state.format.roundByRound || !state.bracket?.bracket.byRound) return undefined;
  const byeCards: Record<string, string | null> = {};
  for (const draw of state.roundDraws ?? []) byeCards[draw.match] = draw.card;
  const matches = state.bracket.bracket.matches;
  if (state.model.status !== 'running' || matches.some((m) => m.side === 'final')) return { byeCards, next: null };
  const round = Math.max(...matches.map((m) => m.round)) + 1;
  let final = false;
  try {
    final = nextRoundPlan(state.bracket).final;
  } catch {
    // The last round is still being played: whether the next is the final is not known yet.
  }
  return { byeCards, next: { round, final } };
}

export interface BracketProps {
  tournament: Pick<TournamentModel, 'teams' | 'matches'> & Partial<Pick<TournamentModel, 'tournamentId'>>;
  /** Games a team must win to take a match (2 = best of 3); the read model does not carry it. */
  gamesToWin?: number;
  /** Where each slot's team comes from, so an empty slot reads "Winner of match 3", and lines join the rounds. */
  sources?: SlotSources;
  /**
   * The venue screen's window onto a bracket: every round of a side from the first still being
   * played to its last (its last `rounds` rounds once all are decided). A window whose first
   * round needs more than `units` rows is listed without lines, each round cut to `matches`
   * matches, live ones first.
   */
  fit?: { matches: number; rounds: number; units: number };
  /** A bracket drawn round by round: its byes' cards and the round still to be drawn. */
  drawn?: RoundDraws;
  /** Pools into a playoff: the bracket is the playoff, drawn once pool play is over. */
  playoff?: boolean;
  /** Single elimination: one bracket, so no "winners'" to tell it from a losers' bracket. */
  single?: boolean;
}

/** Every match of the event, grouped by side and round, with live and disputed matches flagged. */
export function Bracket({ tournament, gamesToWin = 1, sources, fit, drawn, single = false, playoff = false }: BracketProps) {
  const names = new Map(tournament.teams.map((t) => [t.teamId, t.name]));
  const numbers = new Map(tournament.matches.map((m, i) => [m.matchId, i + 1]));
  // Pools into a playoff: pool play is the pools' tables and rounds; the bracket is the playoff's.
  const matches = playoff ? tournament.matches.filter((m) => m.side !== 'pool') : tournament.matches;
  const purpose = losersPlayFor(matches);
  const all = groupBySide(matches, sources);
  // Each team's name leads to its own page, on the bracket page (not the TV's window, which nobody taps).
  const tournamentId = tournament.tournamentId;
  const sides = fit ? all.map((side) => windowOf(side, fit)) : all;
  const card = (match: MatchModel, lastLosers: boolean) => (
    <MatchCard
      match={match}
      number={numbers.get(match.matchId) ?? 0}
      names={names}
      gamesToWin={gamesToWin}
      slotText={(slot) => slotText(match, slot, sources, numbers, fit !== undefined)}
      forThird={lastLosers && purpose === 'third'}
      byeCard={drawn?.byeCards[match.matchId]}
      short={fit !== undefined}
      {...(tournamentId !== undefined && fit === undefined ? { link: (teamId: string) => teamLink(tournamentId, teamId) } : {})}
    />
  );
  return (
    <section id={BRACKET_ID} class="bracket" aria-labelledby="bracket-title">
      <h2 id="bracket-title">{playoff ? 'Playoff' : 'Bracket'}</h2>
      {sides.length === 0 ? (
        <p class="empty">
          {playoff
            ? 'The playoff is drawn once every pool match is decided: the top teams of each pool go on.'
            : 'The bracket is drawn when the tournament starts.'}
        </p>
      ) : null}
      {sides.map((group) => {
        const titleId = `bracket-${group.side}-title`;
        const lastRound = Math.max(...(all.find((g) => g.side === group.side)?.rounds.map((r) => r.round) ?? [0]));
        const layout = group.cut ? null : gridLayout(group, sources);
        // On the screen the rounds that name teams are drawn wide (two shares) and the
        // rounds still to come narrow (one share): the side grows by its shares.
        const named = group.rounds.findIndex((r) => r.matches.every((m) => m.teams.every((t) => t === null)));
        const wide = Math.min(4, named === -1 ? group.rounds.length : named);
        // (Counted in halves: four for a wide round, two for a narrow one, so a round still to
        // come keeps room for "Winner of / match 49" on two lines and its title on no more.)
        const widths = fit ? ` bracket-side--wide-${wide} bracket-side--grow-${Math.min(30, 4 * wide + 2 * (group.rounds.length - wide))}` : '';
        return (
          <section
            class={`bracket-side bracket-side--${group.side} bracket-side--rounds-${Math.min(group.rounds.length, 6)}${widths}`}
            aria-labelledby={titleId}
          >
            <h3 id={titleId}>
              {group.side === 'winners' && single ? 'Single elimination' : (SIDE_TITLES[group.side] ?? group.side)}
              {group.side === 'losers' && purpose ? (
                <span class="side-note"> · {purpose === 'third' ? 'plays for 3rd place' : 'its winner plays the final'}</span>
              ) : null}
            </h3>
            <div class="bracket-scroll" role="region" aria-labelledby={titleId} tabindex={0}>
              {layout ? (
                <ol class={`rounds bracket-grid bracket-grid--${group.rounds.length}-rounds`}>
                  {group.rounds.map(({ round, matches }, column) => (
                    <li class="round">
                      {group.rounds.length > 1 || group.side === 'winners' || drawn ? (
                        <h4 class={`round-title gc-${column + 1}`}>
                          {keepEnd(roundTitle(group.side, round, lastRound, matches, purpose, Boolean(drawn)), fit !== undefined)}
                        </h4>
                      ) : null}
                      <ol class="matches">
                        {cellsOf(matches, layout).map((cell) =>
                          cell.match ? (
                            <li class={`cell gc-${column + 1} gs-${cell.span}${cell.lines}`}>
                              {card(cell.match, group.side === 'losers' && round === lastRound)}
                            </li>
                          ) : (
                            <li class={`cell cell--gap gc-${column + 1} gs-${cell.span}`} aria-hidden="true"></li>
                          ),
                        )}
                      </ol>
                    </li>
                  ))}
                </ol>
              ) : (
                <ol class="rounds">
                  {group.rounds.map(({ round, matches, hidden = 0 }) => (
                    <li class="round">
                      {group.rounds.length > 1 || drawn ? (
                        <h4 class="round-title">{keepEnd(roundTitle(group.side, round, lastRound, matches, purpose, Boolean(drawn)), fit !== undefined)}</h4>
                      ) : null}
                      <ol class="matches">
                        {matches.map((match) => (
                          <li>{card(match, group.side === 'losers' && round === lastRound)}</li>
                        ))}
                      </ol>
                      {hidden > 0 ? <p class="more-matches">+ {hidden} more on the bracket page</p> : null}
                    </li>
                  ))}
                </ol>
              )}
            </div>
          </section>
        );
      })}
      {drawn?.next ? (
        <p class="bracket-next" data-next-round={String(drawn.next.round)}>
          <span class="round-title">{drawn.next.final ? 'Final' : `Round ${drawn.next.round}`}</span> to be drawn
          {drawn.next.round > 2 || sides.length > 0 ? ` once round ${drawn.next.round - 1} is decided` : ''}
        </p>
      ) : null}
    </section>
  );
}

const SIDE_TITLES: Record<string, string> = {
  winners: 'Winners’ bracket',
  losers: 'Losers’ bracket',
  final: 'Final',
  'third-place': '3rd-place match',
  consolation: 'Second chance',
};

/** On the screen a title's last two words stay on one line ("Losers round / 1" never happens). */
function keepEnd(text: string, short: boolean): Child {
  const at = short ? /\S+ \S+$/.exec(text) : null;
  if (!at || at.index === 0) return text;
  return (
    <>
      {text.slice(0, at.index)}
      <span class="keep-together">{at[0]}</span>
    </>
  );
}

function roundTitle(
  side: string,
  round: number,
  lastRound: number,
  matches: readonly MatchModel[],
  purpose: ReturnType<typeof losersPlayFor>,
  byRound = false,
): string {
  if (matches.every((m) => m.side === 'final')) return 'Final';
  // Drawn round by round, both brackets play the event's rounds: round 3 is round 3 in either.
  if (byRound) return `Round ${round}`;
  if (side === 'losers') {
    if (round === lastRound) return purpose === 'third' ? 'Losers’ final, for 3rd' : 'Losers’ final';
    return `Losers round ${round}`;
  }
  if (side === 'final') return round === 1 ? 'Final' : 'Deciding match';
  if (side === 'third-place') return 'For 3rd place';
  if (side === 'consolation') return round === lastRound ? 'Second-chance final' : `Second chance, round ${round}`;
  return `Round ${round}`;
}

interface MatchCardProps {
  match: MatchModel;
  number: number;
  names: ReadonlyMap<string, string>;
  gamesToWin: number;
  /** What an empty slot says: where its team will come from. */
  slotText: (slot: 0 | 1) => Child;
  /** The losers' final of a bracket whose losers play for 3rd. */
  forThird: boolean;
  /** A bye drawn by high card: the card that won it (null when one team alone could draw). */
  byeCard?: string | null | undefined;
  /** The venue screen's narrow cards: the bye's card alone. */
  short?: boolean;
  /** A team's own page, for its name to lead to. */
  link?: (teamId: string) => string;
}

function MatchCard({ match, number, names, gamesToWin, slotText, forThird, byeCard, short = false, link }: MatchCardProps) {
  // A bye is no contest: it has no games to count.
  const showGames = match.status !== 'bye' && (gamesToWin > 1 || match.games.length > 0);
  const classes = ['match', `match--${match.status}`];
  if (match.underReview) classes.push('is-under-review');
  if (match.reopened || match.voided) classes.push('is-reopened');
  const title = match.side === 'final' ? 'Final' : match.side === 'third-place' || forThird ? 'For 3rd place' : `Match ${number}`;
  return (
    <article
      class={classes.join(' ')}
      data-match={match.matchId}
      aria-label={`${title}${match.side === 'final' || forThird ? ` (match ${number})` : ''}, ${match.label}`}
    >
      <header class="match-head">
        {/* On the screen the final and the match for 3rd show their number too: the slots feeding on name matches by number. */}
        <span class="match-label">
          {short && title !== `Match ${number}` ? (
            <>
              {title === 'For 3rd place' ? 'For 3rd' : title} · <span class="keep-together">match {number}</span>
            </>
          ) : (
            title
          )}
        </span>
        {match.status === 'live' ? (
          // The screen's cards say only that the match is live: its table is on the live tables panel.
          <span class="badge badge--live">Live{match.table !== null && !short ? ` · Table ${match.table}` : ''}</span>
        ) : match.table !== null && match.status !== 'bye' ? (
          <span class="match-table">Table {match.table}</span>
        ) : null}
        {match.status === 'forfeit' ? <span class="badge badge--forfeit">Forfeit</span> : null}
        {match.underReview ? <span class="badge badge--review">Under review</span> : null}
        {match.reopened && !match.underReview ? <span class="badge badge--review">Reopened</span> : null}
        {match.awaitingRuling ? (
          <span class="badge badge--review" data-awaiting-ruling>
            Waiting for a ruling
          </span>
        ) : null}
      </header>
      {match.reopened || match.voided ? (
        <p class="match-undone" data-undone>
          {[
            match.reopened ? `Reopened by ${match.reopened.by}` : null,
            match.voided && match.voided.length > 0
              ? `${match.voided.length === 1 ? 'Game' : 'Games'} ${match.voided.map((v) => v.number).join(', ')} voided by ${match.voided[0]!.by}`
              : null,
          ]
            .filter(Boolean)
            .join('; ')}
        </p>
      ) : null}
      <ul class="match-teams">
        {match.teams.map((teamId, i) => {
          const slot = i as 0 | 1;
          const won = teamId !== null && match.winner === teamId;
          return (
            <li class={teamClass(teamId, won, match.status)}>
              <span class="slot-name">
                {teamId === null ? (
                  match.status === 'bye' ? (
                    byeText(byeCard, short)
                  ) : (
                    slotText(slot)
                  )
                ) : link ? (
                  <a class="team-link" href={link(teamId)}>
                    {names.get(teamId) ?? teamId}
                  </a>
                ) : (
                  (names.get(teamId) ?? teamId)
                )}
              </span>
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

/** A bye slot: with the card that won it when the bye was drawn by high card. */
function byeText(card: string | null | undefined, short: boolean): string {
  if (card === undefined || (card === null && short)) return 'bye';
  if (short) return `bye · ${card}`;
  return card === null ? 'bye (the only team yet to have one)' : `bye · high card ${card}`;
}

/**
 * Where an empty slot's team will come from: "Winner of match 3", "Loser of match 5". On the
 * screen's narrow columns the place is kept on one line ("Winner of / match 49", never "match /
 * 49").
 */
function slotText(match: MatchModel, slot: 0 | 1, sources: SlotSources | undefined, numbers: ReadonlyMap<string, number>, short = false): Child {
  const source = sources?.[match.matchId]?.[slot];
  if (!source || (source.kind !== 'winner' && source.kind !== 'loser')) return 'To be decided';
  // By the match's number, as every card is numbered: a table is where a match is played, not which.
  const where = `match ${numbers.get(source.match) ?? source.match}`;
  const who = source.kind === 'winner' ? 'Winner' : 'Loser';
  if (short) {
    return (
      <>
        {who} of <span class="keep-together">{where}</span>
      </>
    );
  }
  return `${who} of ${where}`;
}

function teamClass(teamId: string | null, won: boolean, status: MatchModel['status']): string {
  if (teamId === null) return status === 'bye' ? 'slot is-bye' : 'slot is-tbd';
  return won ? 'slot is-winner' : 'slot';
}

interface SideGroup {
  side: string;
  /** `hidden`: matches of the round left off the screen's window. */
  rounds: { round: number; matches: MatchModel[]; hidden?: number }[];
  /** Some round was cut to fit the screen: listed without lines. */
  cut?: boolean;
}

const DECIDED: ReadonlySet<MatchModel['status']> = new Set(['done', 'bye', 'forfeit']);
// On a crowded screen the matches people are watching come first.
const SCREEN_ORDER: Record<MatchModel['status'], number> = { live: 0, ready: 1, waiting: 2, done: 3, forfeit: 4, bye: 5 };

/**
 * The part of a side a TV can show: from its first round with a match still to play (its last
 * rounds once all are decided), `rounds` rounds on. When the first of them needs more rows than
 * the screen has, each round is cut to the matches that fit, live ones first, and the rest stays
 * on the bracket page.
 */
function windowOf({ side, rounds }: SideGroup, fit: { matches: number; rounds: number; units: number }): SideGroup {
  const open = rounds.findIndex((r) => r.matches.some((m) => !DECIDED.has(m.status)));
  const first = open === -1 ? Math.max(0, rounds.length - fit.rounds) : open;
  // The whole road on from there, to the side's last round (the final), so the room sees where it leads.
  const shown = rounds.slice(first);
  const rows = Math.max(0, ...shown.map((r) => r.matches.length));
  if (rows <= fit.units) return { side, rounds: shown };
  return {
    side,
    cut: true,
    rounds: shown.map(({ round, matches }) => {
      // A slot still to be filled takes two lines ("Winner of / match 33") where a team takes one, so
      // a column holds `fit.matches` cards of known teams, or fewer of matches still to come.
      const lines = (m: MatchModel) => 1 + m.teams.reduce((sum, t) => sum + (t === null ? 2 : 1), 0);
      const budget = fit.matches * 3 + 2;
      const ordered = [...matches].sort((a, b) => SCREEN_ORDER[a.status] - SCREEN_ORDER[b.status]);
      const kept: MatchModel[] = [];
      let used = 0;
      for (const match of ordered) {
        if (kept.length === fit.matches || used + lines(match) > budget) break;
        kept.push(match);
        used += lines(match);
      }
      if (kept.length === matches.length) return { round, matches };
      // Shown in bracket order, so neighbouring matches still sit side by side.
      return { round, matches: matches.filter((m) => kept.includes(m)), hidden: matches.length - kept.length };
    }),
  };
}

/**
 * Matches by side and round, in the order a bracket is read. A plain final fed by the winners'
 * bracket alone (first-round-losers, single elimination) is drawn as the winners' bracket's last
 * column, joined to the matches that feed it; a grand final fed by both brackets keeps its own side.
 */
function groupBySide(matches: readonly MatchModel[], sources: SlotSources | undefined): SideGroup[] {
  const sideOf = new Map(matches.map((m) => [m.matchId, m.side]));
  const bySide = new Map<string, Map<number, MatchModel[]>>();
  const winnersRounds = Math.max(0, ...matches.filter((m) => m.side === 'winners').map((m) => m.round));
  for (const match of matches) {
    let side = match.side;
    let round = match.round;
    const fedBy = sources?.[match.matchId];
    if (side === 'final' && fedBy && fedBy.every((s) => s.kind === 'winner' && sideOf.get(s.match) === 'winners')) {
      side = 'winners';
      round = winnersRounds + 1;
    }
    let rounds = bySide.get(side);
    if (!rounds) bySide.set(side, (rounds = new Map()));
    const list = rounds.get(round);
    if (list) list.push(match);
    else rounds.set(round, [match]);
  }
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

// Known sides in the order a bracket is read; any other side after them, as it came.
const SIDE_ORDER = ['winners', 'losers', 'final', 'third-place', 'consolation'];

interface Placed {
  start: number;
  span: number;
  /** Connector classes: ` feeds` (a line out to the next round), ` joins-2` or ` joins-1` (lines in). */
  lines: string;
}

/**
 * Rows for each match of a side: a match with no feeder shown takes the next free row, one fed
 * by one shown match takes its feeder's rows, one fed by two takes both. Null when no sources
 * are known or the side does not lay out as a tree, and it is then listed without lines.
 */
function gridLayout(group: SideGroup, sources: SlotSources | undefined): Map<string, Placed> | null {
  if (!sources) return null;
  const placed = new Map<string, Placed>();
  const column = new Map<string, number>();
  let next = 0;
  group.rounds.forEach(({ matches }, c) => {
    for (const match of matches) {
      column.set(match.matchId, c);
      const feeders = (sources[match.matchId] ?? [])
        .filter((s): s is { kind: 'winner'; match: string } => s.kind === 'winner')
        .map((s) => ({ id: s.match, at: placed.get(s.match) }))
        .filter((f): f is { id: string; at: Placed } => f.at !== undefined && column.get(f.id) === c - 1);
      let at: Placed;
      if (feeders.length === 0) at = { start: next, span: 1, lines: '' };
      else if (feeders.length === 1) at = { start: feeders[0]!.at.start, span: feeders[0]!.at.span, lines: ' joins-1' };
      else {
        const [a, b] = [feeders[0]!.at, feeders[1]!.at].sort((x, y) => x.start - y.start) as [Placed, Placed];
        at = { start: a.start, span: b.start + b.span - a.start, lines: a.start + a.span === b.start && a.span === b.span ? ' joins-2' : '' };
      }
      for (const f of feeders) f.at.lines += ' feeds';
      next = Math.max(next, at.start + at.span);
      placed.set(match.matchId, at);
    }
  });
  // Matches of one column must not share rows.
  for (let c = 0; c < group.rounds.length; c++) {
    const spans = group.rounds[c]!.matches.map((m) => placed.get(m.matchId)!).sort((a, b) => a.start - b.start);
    for (let i = 1; i < spans.length; i++) if (spans[i]!.start < spans[i - 1]!.start + spans[i - 1]!.span) return null;
  }
  return placed;
}

/** A column's cells top to bottom: its matches, with empty cells holding the rows between them. */
function cellsOf(matches: readonly MatchModel[], layout: Map<string, Placed>): { match: MatchModel | null; span: number; lines: string }[] {
  const cells: { match: MatchModel | null; span: number; lines: string }[] = [];
  let row = 0;
  for (const match of [...matches].sort((a, b) => layout.get(a.matchId)!.start - layout.get(b.matchId)!.start)) {
    const at = layout.get(match.matchId)!;
    if (at.start > row) cells.push({ match: null, span: at.start - row, lines: '' });
    cells.push({ match, span: at.span, lines: at.lines });
    row = at.start + at.span;
  }
  return cells;
}
