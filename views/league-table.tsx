/**
 * A league's standings and rounds (round robin, Swiss) as the room reads them: each team's place
 * (a shared place marked), its matches won and lost, the value of every tiebreak the structure
 * ranks by, and under the table the tiebreaks in order in words, with a tie at the top named; and
 * beside it the round in play, "Table 5: Aces High against Big Books", with the bye and, for a
 * schedule made at the start, the round after. The standings page, the venue screen and its
 * stream render these same components; the order, places and tiebreaks are the projection's
 * (engine/league-table.ts), the pairings events/league-rounds.ts's.
 */
import type { Tiebreak } from '../engine/league-table.ts';
import { TIEBREAK_WORDS, tiedAtTop } from '../engine/league-table.ts';
import { STRUCTURES } from '../engine/structures.ts';
import { teamLink } from '../events/addresses.ts';
import type { LeagueRound, LeagueRounds, Pairing } from '../events/league-rounds.ts';
import type { TeamRow, TournamentModel } from '../events/read-models.ts';
import { ordinal } from '../events/standings.ts';
import { listed } from '../events/tournament-state.ts';
import { pointsText, record } from './team-standing.ts';

export const LEAGUE_ROUNDS_ID = 'league-rounds';

type League = NonNullable<TournamentModel['league']>;

/** Each tiebreak's column: its heading, the heading's words in full, and a row's value as printed. */
const COLUMNS: Record<Exclude<Tiebreak, 'match-wins'>, { head: string; title: string }> = {
  'games-won': { head: 'Games', title: 'Games won–lost' },
  'points-difference': { head: '+/−', title: 'Points scored minus points conceded' },
  'opponents-match-wins': { head: 'Opp. won', title: 'Share of matches won by the teams played' },
  'head-to-head': { head: 'H2H', title: 'Matches won between the teams still level' },
};

/** A difference as the room writes it: "+35", "−20", "0". */
export function differenceText(points: number): string {
  return points > 0 ? `+${points}` : pointsText(points);
}

/** An opponents' share in thousandths as a percentage: 583 → "58.3%". */
export function shareText(thousandths: number): string {
  return `${(thousandths / 10).toFixed(1)}%`;
}

/** A place as the table prints it: "3", or "=3" when shared. */
function placeCell(place: number, shared: boolean): string {
  return shared ? `=${place}` : String(place);
}

export interface LeagueBoardProps {
  tournament: Pick<TournamentModel, 'name' | 'teams' | 'league'> & Partial<Pick<TournamentModel, 'tournamentId' | 'status'>>;
  /** The venue screen: no links, no players, the columns a room reads from afar. */
  screen?: boolean;
  /** The section's id: the standings region the page's stream replaces. */
  id: string;
  /** On the screen, the rows split into this many side-by-side tables (about 18 rows fit in one). */
  columns?: number;
  /** The table's heading ("Pool A"), its id then made from `id`; "Standings" when not given. */
  title?: string;
  /** Whether the ranking's words follow the table (one pool of several leaves them to the pools' own). */
  notes?: boolean;
}

/** A league's standings: place, team, matches, each tiebreak's value, and the ranking in words. */
export function LeagueBoard({ tournament, screen = false, id, columns = 1, title, notes = true }: LeagueBoardProps) {
  const titleId = title ? `${id}-title` : 'leaderboard-title';
  const league = tournament.league!;
  const teams = new Map(tournament.teams.map((t) => [t.teamId, t]));
  const shown = league.tiebreaks.filter((t): t is Exclude<Tiebreak, 'match-wins'> => t !== 'match-wins' && (t !== 'head-to-head' || !screen));
  const link = !screen && tournament.tournamentId !== undefined ? (teamId: string) => teamLink(tournament.tournamentId!, teamId) : null;
  const finished = tournament.status === 'finished';
  const size = Math.ceil(league.rows.length / Math.max(1, columns)) || 1;
  const parts: League['rows'][] = [];
  for (let i = 0; i < league.rows.length; i += size) parts.push(league.rows.slice(i, i + size));
  return (
    <section id={id} class={screen ? 'leaderboard league-board league-board--screen' : 'leaderboard league-board'} aria-labelledby={titleId}>
      <h2 id={titleId}>{title ?? 'Standings'}</h2>
      {league.rows.length === 0 ? (
        <p class="empty">No teams have registered yet.</p>
      ) : (
        <div class={`league-board-body league-board-body--columns-${parts.length}`}>
          {parts.map((rows) => (
            <div class="table-scroll" role="region" aria-labelledby={titleId} tabindex={0}>
              <table class="standings league-standings">
                <thead>
                  <tr>
                    <th scope="col" class="num">
                      <abbr title="Place">#</abbr>
                    </th>{' '}
                    <th scope="col" class="team-col">
                      Team
                    </th>{' '}
                    <th scope="col" class="num">
                      <abbr title="Matches won–lost">{screen ? 'W–L' : 'Matches'}</abbr>
                    </th>
                    {shown.map((t) => (
                      <>
                        {' '}
                        <th scope="col" class="num" data-tiebreak={t}>
                          <abbr title={COLUMNS[t].title}>{COLUMNS[t].head}</abbr>
                        </th>
                      </>
                    ))}
                    {screen ? null : (
                      <>
                        {' '}
                        <th scope="col" class="placed-by">
                          Placed by
                        </th>
                      </>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => {
                    const team = teams.get(row.teamId);
                    const name = team?.name ?? row.teamId;
                    // A pool's first is not the event's champion: pools name theirs by the team's standing.
                    const champion = league.pools ? team?.status === 'champion' : finished && row.place === 1 && !row.shared;
                    const gone = team?.status === 'withdrawn' || team?.status === 'disqualified';
                    return (
                      <tr data-team={row.teamId} class={champion ? 'is-champion' : gone ? 'is-finished' : undefined}>
                        <td class="num rank">{placeCell(row.place, row.shared)}</td>{' '}
                        <th scope="row" class="team-col">
                          <span class="team-name">
                            {champion ? (
                              <span class="crown" aria-hidden="true">
                                ★{' '}
                              </span>
                            ) : null}
                            {link ? (
                              <a class="team-link" href={link(row.teamId)}>
                                {name}
                              </a>
                            ) : (
                              name
                            )}
                          </span>
                          {!screen && team && team.players.length > 0 ? <span class="players">{team.players.join(' & ')}</span> : null}
                        </th>{' '}
                        <td class="num">
                          {record(row.wins, row.losses)}
                          {row.byes > 0 && !screen ? <span class="bye-note"> ({row.byes === 1 ? 'a bye' : `${row.byes} byes`})</span> : null}
                        </td>
                        {shown.map((t) => (
                          <>
                            {' '}
                            <td class="num" data-tiebreak={t}>
                              {tiebreakValue(row, t)}
                            </td>
                          </>
                        ))}
                        {screen ? null : (
                          <>
                            {' '}
                            <td class="placed-by">{placedBy(row)}</td>
                          </>
                        )}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          ))}
          {notes ? <LeagueNotes league={league} names={tournament.teams} /> : null}
        </div>
      )}
    </section>
  );
}

/** A row's value of one tiebreak as printed: "5–2", "+35", "58.3%". */
export function tiebreakValue(row: League['rows'][number], tiebreak: Tiebreak): string {
  switch (tiebreak) {
    case 'match-wins':
      return String(row.wins);
    case 'games-won':
      return record(row.gamesWon, row.gamesLost);
    case 'points-difference':
      return differenceText(row.difference);
    case 'opponents-match-wins':
      return row.opponentsWinShare === null ? '—' : shareText(row.opponentsWinShare);
    case 'head-to-head':
      return row.headToHead === null ? '—' : String(row.headToHead);
    default: {
      const _exhaustive: never = tiebreak;
      return _exhaustive;
    }
  }
}

/** Why a row stands where it does, in words: "level: shares 3rd", "below on games won". */
function placedBy(row: League['rows'][number]): string {
  if (row.shared) return `Level on every tiebreak: shares ${ordinal(row.place)}`;
  if (row.separatedBy === null) return row.place === 1 ? 'First' : '—';
  return `Below the team above on ${TIEBREAK_WORDS[row.separatedBy]}`;
}

/**
 * A league's standings in words: its structure, the tiebreaks in order, and a tie at the top that
 * no tiebreak broke, named rather than hidden behind the order the rows happen to be listed in.
 */
function LeagueNotes({ league, names }: { league: League; names: readonly TeamRow[] }) {
  const name = (id: string) => names.find((t) => t.teamId === id)?.name ?? id;
  const tied = tiedAtTop(league.rows);
  return (
    <div class="league-notes">
      <p>
        {STRUCTURES.find((s) => s.options.elimination === league.kind)?.name ?? 'Standings'}: ranked by{' '}
        {league.tiebreaks.map((t) => TIEBREAK_WORDS[t]).join(', then ')}.
      </p>
      {tied.length > 0 ? <p class="league-tie">Tied for 1st: {listed(tied.map(name))}.</p> : null}
    </div>
  );
}

export interface RoundPairingsProps {
  rounds: LeagueRounds;
  /** Team id → name. */
  names: Readonly<Record<string, string>>;
  /** Games a team must win to take a match: more than one, and a decided match gives its games. */
  gamesToWin: number;
  /** The venue screen: the round in play and, from a schedule made at the start, the next one. */
  screen?: boolean;
}

/** "Round 3 of 5". */
export function roundTitle(round: number, of: number): string {
  return `Round ${round} of ${of}`;
}

/** How a pairing stands, in a few words. */
function pairingState(pairing: Pairing, names: Readonly<Record<string, string>>, gamesToWin: number): string {
  if (pairing.state === 'playing') return 'Playing now';
  if (pairing.state === 'to-seat') return pairing.table === null ? 'To come' : 'To be seated';
  const winner = pairing.winner === null ? '' : (names[pairing.winner] ?? pairing.winner);
  if (pairing.forfeit) return `${winner} won by forfeit`;
  const slot = pairing.teams[0] === pairing.winner ? 0 : 1;
  return gamesToWin > 1 ? `${winner} won ${record(pairing.gamesWon[slot]!, pairing.gamesWon[1 - slot]!)}` : `${winner} won`;
}

/**
 * The round in play and, on the standings page, every round before and after it; on the screen
 * the round in play and the next one of a schedule made at the start, or when the next round is
 * paired, for a Swiss event.
 */
export function RoundPairings({ rounds, names, gamesToWin, screen = false }: RoundPairingsProps) {
  const current = rounds.rounds.find((r) => r.round === rounds.current)!;
  const following = rounds.rounds.find((r) => r.round === rounds.current + 1);
  // The screen shows the round after only when both fit whole.
  const next = following && lines(current) + lines(following) <= SCREEN_LINES ? following : undefined;
  const shown = screen ? [fitted(current), ...(next ? [next] : [])] : rounds.rounds;
  return (
    <section id={LEAGUE_ROUNDS_ID} class={screen ? 'league-rounds league-rounds--screen' : 'league-rounds'} aria-labelledby="league-rounds-title">
      <h2 id="league-rounds-title">{screen ? `${roundTitle(current.round, rounds.roundsInEvent)}: pairings` : 'Rounds'}</h2>
      <div class="league-round-list">
        {shown.map((round) => (
          <RoundBlock
            more={screen && round.round === current.round ? current.pairings.length - round.pairings.length : 0}
            round={round}
            of={rounds.roundsInEvent}
            names={names}
            gamesToWin={gamesToWin}
            now={round.round === rounds.current}
            heading={!screen || round.round !== current.round}
            byeIsWin={rounds.byeIsWin}
            screen={screen}
          />
        ))}
        {rounds.toPair !== null && (!screen || !next) ? (
          <p class="league-to-pair">
            {roundTitle(rounds.toPair, rounds.roundsInEvent)} is paired from the standings once round {rounds.toPair - 1} is over.
          </p>
        ) : null}
      </div>
    </section>
  );
}

/** Lines of pairings the screen's panel holds in type read across the room, with a title over them. */
const SCREEN_LINES = 17;

/** A round's lines: its matches and its bye. */
const lines = (round: LeagueRound) => round.pairings.length + (round.bye === null ? 0 : 1);

/**
 * A round cut to what the screen holds: the matches being played first, then those still to be
 * seated, then the decided ones, each kept in table order, and a line to say how many are left
 * off.
 */
function fitted(round: LeagueRound): LeagueRound {
  if (lines(round) <= SCREEN_LINES) return round;
  const rank = { playing: 0, 'to-seat': 1, decided: 2 } as const;
  const room = SCREEN_LINES - 1 - (round.bye === null ? 0 : 1);
  const kept = new Set(
    round.pairings
      .map((p, i) => ({ p, i }))
      .sort((a, b) => rank[a.p.state] - rank[b.p.state] || a.i - b.i)
      .slice(0, room)
      .map((x) => x.p),
  );
  return { ...round, pairings: round.pairings.filter((p) => kept.has(p)) };
}

function RoundBlock({
  more,
  round,
  of,
  names,
  gamesToWin,
  now,
  heading,
  byeIsWin,
  screen,
}: {
  /** Matches of the round the screen leaves off, for want of room. */
  more: number;
  byeIsWin: boolean;
  screen: boolean;
  round: LeagueRound;
  of: number;
  names: Readonly<Record<string, string>>;
  gamesToWin: number;
  now: boolean;
  heading: boolean;
}) {
  const state = now ? (round.decided ? 'over' : 'in play') : round.decided ? 'over' : 'to come';
  const title = `${roundTitle(round.round, of)}, ${state}`;
  const list = (
    <ol class="pairings">
      {round.pairings.map((p) => (
        <li class={`pairing pairing--${p.state}`} data-match={p.matchId}>
          <span class="pairing-line">
            {/* Pool play's pairings say their pool on the page; the screen's columns leave it to the pools' tables. */}
            {p.pool && !screen ? <span class="pairing-pool">Pool {p.pool}</span> : null}
            {p.pool && !screen ? ' ' : null}
            <span class="pairing-table">{p.table === null ? '' : `Table ${p.table}:`}</span>{' '}
            <span class={p.winner === p.teams[0] ? 'pairing-team is-winner' : 'pairing-team'}>{names[p.teams[0]] ?? p.teams[0]}</span>{' '}
            <span class="pairing-vs">against</span>{' '}
            <span class={p.winner === p.teams[1] ? 'pairing-team is-winner' : 'pairing-team'}>{names[p.teams[1]] ?? p.teams[1]}</span>
          </span>{' '}
          <span class="pairing-state">{pairingState(p, names, gamesToWin)}</span>
        </li>
      ))}
      {round.bye !== null ? (
        <li class="pairing pairing--bye">
          <span class="pairing-line">
            <span class="pairing-table">Bye:</span> <span class="pairing-team">{names[round.bye] ?? round.bye}</span>
          </span>
          {byeIsWin ? <span class="pairing-state"> counts as a match won</span> : null}
        </li>
      ) : null}
      {more > 0 ? (
        <li class="pairing pairing--more">
          And {more} more {more === 1 ? 'match' : 'matches'} of round {round.round}, every one on the standings page
        </li>
      ) : null}
    </ol>
  );
  // On the page, the rounds not in play fold away under their titles; the screen shows no other.
  if (heading && !now && !screen)
    return (
      <details class="league-round" data-round={round.round}>
        <summary>{title}</summary>
        {list}
      </details>
    );
  return (
    <div class={now ? 'league-round is-current' : 'league-round'} data-round={round.round}>
      {heading ? <h3>{title}</h3> : null}
      {list}
    </div>
  );
}
