/**
 * A progressive evening (tournament-spades) as the room sees it: where every player sits this
 * round (and who sits out), the individual standings round by round with the high player and
 * the high male / high female, the four players of a table by seat, and the director's panel
 * for registering players, the number of rounds and seating each round.
 */
import { SEAT_NAMES, type Seat, SEATS } from '../engine/cards.ts';
import type { GameModel } from '../events/read-models.ts';
import type { TournamentState } from '../events/tournament-projection.ts';
import { PostForm } from './entry-forms.tsx';
import { playerLink } from '../events/addresses.ts';
import { type Standing, ordinal } from '../events/standings.ts';

export const WHERE_TO_SIT_ID = 'where-to-sit';
export const INDIVIDUAL_ID = 'individual-standings';

export interface SeatRow {
  playerId: string;
  name: string;
  table: number;
  seat: Seat;
  /** How the player got to this seat from the round before ("up from table 3"); null in the first round. */
  move: string | null;
}

/**
 * The movement of one player into a round, in the words the room says it: from where they sat
 * the round before (or rested) to the table they take now.
 */
export function movementWords(before: { table: number } | 'sat-out' | null, table: number): string | null {
  if (before === null) return null;
  if (before === 'sat-out') return 'back from sitting out';
  if (before.table === table) return `stays at table ${table}`;
  if (before.table === table + 1) return `up from table ${before.table}`;
  return `from table ${before.table} to table ${table}`;
}

export interface ProgressiveView {
  roundsInEvent: number;
  roundsStarted: number;
  finished: boolean;
  /** The seating the room needs now: the next round's as soon as the results give it, else the round in play. */
  sitting: {
    round: number;
    state: 'next' | 'playing' | 'played';
    /**
     * The room is moving: the last table of a round has finished and no entry of the next round
     * has been made yet. The venue screen keeps "where to sit now" up all that time.
     */
    hold: boolean;
    seats: SeatRow[];
    sittingOut: { playerId: string; name: string }[];
  } | null;
  /** Best total first, with each round's score (null: not yet over) and whether the player sat that round out. */
  standings: { place: number; playerId: string; name: string; total: number; rounds: (number | null)[]; satOut: boolean[] }[];
  /** High player, high male, high female: leaders while it is played, winners once it is over. */
  leaders: { prize: 'High player' | 'High male' | 'High female'; names: string[]; total: number }[];
}

/**
 * What the progressive panels show, from the tournament's state; null for a bracket event. With
 * the games, a round seated but not yet begun (no deal, bid or card at any of its tables) still
 * holds the room on "where to sit now".
 */
export function progressiveView(state: TournamentState, games?: Readonly<Record<string, GameModel>>): ProgressiveView | null {
  const p = state.progressive;
  if (!p) return null;
  const names = new Map(state.model.teams.map((t) => [t.teamId, t.name]));
  const nameOf = (id: string) => names.get(id) ?? id;
  const roundsInEvent = state.format.rounds ?? 1;
  const last = p.rounds.at(-1);
  let sitting: ProgressiveView['sitting'] = null;
  const seatsOf = (seating: NonNullable<typeof p.nextSeating>, round: number) => {
    const before = p.rounds.find((r) => r.round === round - 1);
    const previous = (id: string): { table: number } | 'sat-out' | null => {
      if (!before) return null;
      if (before.sittingOut.includes(id)) return 'sat-out';
      const table = before.seating.find((t) => SEATS.some((s) => t.seats[s] === id));
      return table ? { table: table.table } : null;
    };
    return seating
      .flatMap((t) =>
        SEATS.map((seat) => ({
          playerId: t.seats[seat],
          name: nameOf(t.seats[seat]),
          table: t.table,
          seat,
          move: movementWords(previous(t.seats[seat]), t.table),
        })),
      )
      .sort((a, b) => a.name.localeCompare(b.name));
  };
  const out = (ids: readonly string[]) => ids.map((id) => ({ playerId: id, name: nameOf(id) })).sort((a, b) => a.name.localeCompare(b.name));
  if (p.nextSeating) {
    const round = p.rounds.length + 1;
    // Before the first round the room is still arriving, not moving: the rotation keeps going.
    sitting = { round, state: 'next', hold: last?.results != null, seats: seatsOf(p.nextSeating, round), sittingOut: out(p.nextSittingOut ?? []) };
  } else if (last) {
    const begun = (gameId: string | undefined) => {
      const game = gameId === undefined ? undefined : games?.[gameId];
      return game === undefined || game.current !== null || game.hands.length > 0 || game.winner !== null;
    };
    const waiting = last.results === null && last.round > 1 && games !== undefined && !Object.values(last.games).some(begun);
    sitting = {
      round: last.round,
      state: last.results ? 'played' : 'playing',
      hold: waiting,
      seats: seatsOf(last.seating, last.round),
      sittingOut: out(last.sittingOut ?? []),
    };
  }
  const genders = new Map(p.players.map((pl) => [pl.playerId, pl.gender]));
  const standings = p.standings.map((s) => ({
    place: s.place,
    playerId: s.playerId,
    name: nameOf(s.playerId),
    total: s.total,
    rounds: p.rounds.map((r) => r.scores?.[s.playerId] ?? null),
    satOut: p.rounds.map((r) => (r.sittingOut ?? []).includes(s.playerId)),
  }));
  const played = p.rounds.some((r) => r.results !== null);
  const leaders: ProgressiveView['leaders'] = [];
  if (played) {
    for (const [prize, gender] of [
      ['High player', undefined],
      ['High male', 'male'],
      ['High female', 'female'],
    ] as const) {
      const group = standings.filter((s) => gender === undefined || genders.get(s.playerId) === gender);
      if (group.length === 0) continue;
      const top = Math.max(...group.map((s) => s.total));
      leaders.push({ prize, names: group.filter((s) => s.total === top).map((s) => s.name), total: top });
    }
  }
  return { roundsInEvent, roundsStarted: p.rounds.length, finished: state.model.status === 'finished', sitting, standings, leaders };
}

/**
 * Where each player of an evening stands, in the room's words, by player id: "table 2, North"
 * while the round is played ("round 3: table 2, North" once the next seating is drawn),
 * "sitting out round 3", or the final place ("2nd place, shared"). Empty before the start, when
 * the bracket's words ("Registered") still hold.
 */
export function playerStandings(state: TournamentState): Map<string, Standing> {
  const p = state.progressive;
  const standings = new Map<string, Standing>();
  if (!p || state.model.status === 'registration') return standings;
  const last = p.rounds.at(-1);
  const seatIn = (seating: NonNullable<typeof p.nextSeating>, id: string) => {
    for (const table of seating) for (const seat of SEATS) if (table.seats[seat] === id) return { table: table.table, seat };
    return null;
  };
  for (const player of p.players) {
    const id = player.playerId;
    const ranked = p.standings.find((s) => s.playerId === id);
    let standing: Standing;
    if (state.model.status === 'finished' && ranked) {
      const shared = p.standings.filter((s) => s.place === ranked.place).length > 1;
      standing = {
        label: `${ordinal(ranked.place)} place${shared ? ', shared' : ''}`,
        short: `${ordinal(ranked.place)}${shared ? '=' : ''}`,
        tone: ranked.place === 1 ? 'champion' : 'placed',
      };
    } else if (p.nextSeating || (last && !last.results)) {
      const round = p.nextSeating ? p.rounds.length + 1 : last!.round;
      const where = seatIn(p.nextSeating ?? last!.seating, id);
      const ahead = p.nextSeating ? `round ${round}: ` : '';
      standing = where
        ? { label: `${ahead}table ${where.table}, ${SEAT_NAMES[where.seat]}`, short: `${ahead}table ${where.table}, ${SEAT_NAMES[where.seat]}`, tone: 'seated' }
        : { label: `sitting out round ${round}`, short: `sitting out round ${round}`, tone: 'resting' };
    } else {
      standing = { label: 'waiting for the next seating', short: 'waiting', tone: 'registered' };
    }
    standings.set(id, standing);
  }
  return standings;
}

/**
 * A progressive table's game in the evening's words: "Round 2 · Hand 3 of 4", "Round 2 · Hand 5,
 * an extra hand to break the tie", "Round 2 · all 4 hands played". A round is 4 hands, not games
 * won, so no page of an evening speaks of games.
 */
export function roundHandWords(round: number, game: Pick<GameModel, 'current' | 'rows' | 'winner'>): string {
  if (game.winner) return `Round ${round} · all ${game.rows.length} hands played`;
  const hand = game.current?.number ?? game.rows.length + 1;
  return hand > 4 ? `Round ${round} · Hand ${hand}, an extra hand to break the tie` : `Round ${round} · Hand ${hand} of 4`;
}

/** "Where to sit now": every player's table and seat, by name, large enough to read across the room. */
export function WhereToSit({ view, tournamentId }: { view: ProgressiveView; tournamentId?: string }) {
  const sitting = view.sitting;
  const count = sitting ? sitting.seats.length + sitting.sittingOut.length : 0;
  const columns = count <= 8 ? 1 : count <= 20 ? 2 : count <= 36 ? 3 : 4;
  const title = !sitting
    ? 'Where to sit'
    : sitting.state === 'next'
      ? `Round ${sitting.round} of ${view.roundsInEvent}: where to sit now`
      : sitting.state === 'playing'
        ? `Round ${sitting.round} of ${view.roundsInEvent}: where everyone sits`
        : `Round ${sitting.round} of ${view.roundsInEvent}: where everyone sat`;
  return (
    <section
      id={WHERE_TO_SIT_ID}
      class={`where-to-sit where-to-sit--columns-${columns}${sitting?.hold ? ' where-to-sit--hold' : ''}`}
      data-hold={sitting?.hold ? 'true' : 'false'}
      aria-labelledby="where-to-sit-title"
    >
      <h2 id="where-to-sit-title">{title}</h2>
      {!sitting ? (
        <p class="empty">The first seating is drawn when the director starts the evening.</p>
      ) : (
        <>
          <ol class="sit-list">
            {sitting.seats.map((row) => (
              <li class="sit-row" data-player={row.playerId} data-table={row.table} data-seat={row.seat}>
                <span class="sit-name">
                  {tournamentId === undefined ? (
                    row.name
                  ) : (
                    <a class="team-link" href={playerLink(tournamentId, row.playerId)}>
                      {row.name}
                    </a>
                  )}
                </span>
                <span class="sit-place">
                  Table {row.table} · {SEAT_NAMES[row.seat]}
                  {row.move ? <span class="sit-move">{row.move}</span> : null}
                </span>
              </li>
            ))}
          </ol>
          {sitting.sittingOut.length > 0 ? (
            <p class="sit-out" data-sitting-out={sitting.sittingOut.map((s) => s.playerId).join(' ')}>
              Sitting out round {sitting.round}:{' '}
              <strong>
                {tournamentId === undefined
                  ? sitting.sittingOut.map((s) => s.name).join(', ')
                  : sitting.sittingOut.map((s, i) => (
                      <>
                        {i > 0 ? ', ' : ''}
                        <a class="team-link" href={playerLink(tournamentId, s.playerId)}>
                          {s.name}
                        </a>
                      </>
                    ))}
              </strong>{' '}
              (scores the round's average)
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/** How many side-by-side tables the screen's individual standings take: about 18 rows fit in each. */
export function individualColumns(players: number): number {
  return players <= 18 ? 1 : players <= 36 ? 2 : 3;
}

/**
 * The individual standings: running totals, each round's score, and the high player / male /
 * female. Split into `columns` side-by-side tables (the venue screen, a large evening), each
 * keeps the last round's score and the total, so every player stays on the TV.
 */
export function IndividualStandings({ view, columns = 1, tournamentId }: { view: ProgressiveView; columns?: number; tournamentId?: string }) {
  const all = Array.from({ length: Math.max(view.roundsStarted, 0) }, (_, i) => i + 1);
  const rounds = columns > 1 ? all.slice(-1) : all;
  const size = Math.ceil(view.standings.length / Math.max(1, columns));
  const parts =
    columns > 1 ? Array.from({ length: columns }, (_, i) => view.standings.slice(i * size, (i + 1) * size)).filter((p) => p.length > 0) : [view.standings];
  return (
    <section id={INDIVIDUAL_ID} class={`individual-standings individual-standings--columns-${parts.length}`} aria-labelledby="individual-title">
      <h2 id="individual-title">Individual standings{view.finished ? ' (final)' : ''}</h2>
      {view.leaders.length > 0 ? (
        <ul class="leaders">
          {view.leaders.map((l) => (
            <li data-prize={l.prize}>
              {l.prize}
              {view.finished ? '' : ' so far'}: <strong>{l.names.join(', ')}</strong> ({l.total})
            </li>
          ))}
        </ul>
      ) : null}
      {view.standings.length === 0 ? (
        <p class="empty">No players have registered yet.</p>
      ) : (
        <div class="individual-columns">
          {parts.map((part) => (
            <div class="table-scroll" role="region" aria-labelledby="individual-title" tabindex={0}>
              <table class="standings individual">
                <thead>
                  <tr>
                    <th scope="col" class="num">
                      <abbr title="Place">#</abbr>
                    </th>
                    <th scope="col">Player</th>
                    {rounds.map((r) => (
                      <th scope="col" class="num">
                        <abbr title={`Round ${r}`}>R{r}</abbr>
                      </th>
                    ))}
                    <th scope="col" class="num">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {part.map((s) => (
                    <tr data-player={s.playerId}>
                      <td class="num">{s.place}</td>
                      <td>
                        {tournamentId === undefined ? (
                          s.name
                        ) : (
                          <a class="team-link" href={playerLink(tournamentId, s.playerId)}>
                            {s.name}
                          </a>
                        )}
                      </td>
                      {rounds.map((r) => (
                        <td class="num" {...(s.satOut[r - 1] ? { title: 'Sat out: the round average' } : {})}>
                          {s.rounds[r - 1] === null || s.rounds[r - 1] === undefined ? '—' : `${s.rounds[r - 1]}${s.satOut[r - 1] ? '*' : ''}`}
                        </td>
                      ))}
                      <td class="num total">{s.total}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </div>
      )}
      {view.standings.some((s) => s.satOut.some(Boolean)) ? <p class="side-note">* sat out: the round's average score, rounded.</p> : null}
    </section>
  );
}

/** A table's four players by seat, for the scorekeeper's phone and the public table page. */
export function SeatList({ seats }: { seats: Partial<Record<Seat, string>> }) {
  if (!SEATS.every((s) => seats[s])) return null;
  return (
    <ul class="seat-list" aria-label="Players by seat">
      {SEATS.map((seat) => (
        <li data-seat={seat}>
          <span class="seat-list-seat">{SEAT_NAMES[seat]}</span> {seats[seat]}
        </li>
      ))}
    </ul>
  );
}

/** One table of the round at the director's desk: done, or the hand being played, and who plays it. */
export interface DeskTable {
  table: number;
  state: 'done' | 'playing' | 'waiting';
  /** "done, N–S 120 · E–W 80", "hand 3 of 4", "hand 5: an extra hand to break the tie", "waiting for the first deal". */
  words: string;
  /** The two partnerships, North–South first. */
  players: string;
}

export interface ProgressiveDirectorProps {
  view: ProgressiveView;
  /** The latest round seated, table by table; null before the first. */
  tables: { round: number; rows: DeskTable[]; sittingOut: string[] } | null;
  /** For each player's name to lead to the player's page. */
  tournamentId?: string;
  status: string;
  /** Whether the director may still change the number of rounds. */
  roundsChangeable: boolean;
  /** The round the next "seat" button seats, or null when none is ready. */
  nextRound: number | null;
  /** Why no round can be seated now (a round in play, the last played). */
  waiting: string | null;
}

/** The director's view of a progressive evening, from the tournament's state and its games. */
export function progressiveDirectorProps(state: TournamentState, games: Readonly<Record<string, GameModel>> = {}): ProgressiveDirectorProps {
  const view = progressiveView(state, games)!;
  const p = state.progressive!;
  const playing = p.rounds.find((r) => r.results === null);
  const ready = state.model.status === 'running' && p.nextSeating !== null;
  const names = new Map(state.model.teams.map((t) => [t.teamId, t.name]));
  const nameOf = (id: string) => names.get(id) ?? id;
  const last = p.rounds.at(-1);
  const tables: ProgressiveDirectorProps['tables'] = last
    ? {
        round: last.round,
        sittingOut: last.sittingOut.map(nameOf),
        rows: last.seating.map((t): DeskTable => {
          const players = `${nameOf(t.seats.N)} & ${nameOf(t.seats.S)} (N–S) v ${nameOf(t.seats.E)} & ${nameOf(t.seats.W)} (E–W)`;
          const game = games[last.games[String(t.table)] ?? ''];
          if (!game) return { table: t.table, state: 'waiting', words: 'waiting for its game to start', players };
          if (game.winner) return { table: t.table, state: 'done', words: `done, N–S ${game.score.NS} · E–W ${game.score.EW}`, players };
          const hand = game.current?.number ?? game.rows.length + 1;
          if (!game.current && game.rows.length === 0) return { table: t.table, state: 'waiting', words: 'waiting for the first deal', players };
          return { table: t.table, state: 'playing', words: hand > 4 ? `hand ${hand}: an extra hand to break the tie` : `hand ${hand} of 4`, players };
        }),
      }
    : null;
  return {
    view,
    tables,
    tournamentId: state.model.tournamentId,
    status: state.model.status,
    roundsChangeable: state.model.status !== 'finished' && p.rounds.length < view.roundsInEvent,
    nextRound: ready ? p.rounds.length + 1 : null,
    waiting: playing ? `Round ${playing.round} is being played.` : state.model.status === 'finished' ? 'All rounds are played.' : null,
  };
}

/** The latest round at the director's desk: each table done, or the hand it plays and who plays it, and who sits out. */
function DeskTables({ tables }: { tables: NonNullable<ProgressiveDirectorProps['tables']> }) {
  return (
    <section class="desk-tables" aria-labelledby="desk-tables-title">
      <h3 id="desk-tables-title">Round {tables.round}, table by table</h3>
      <ul class="desk-table-list">
        {tables.rows.map((row) => (
          <li data-table={String(row.table)} data-state={row.state}>
            <strong>Table {row.table}</strong>: <span class="desk-table-state">{row.words}</span>
            <br />
            <span class="desk-table-players">{row.players}</span>
          </li>
        ))}
      </ul>
      {tables.sittingOut.length > 0 ? (
        <p class="desk-sitting-out">
          Sitting out round {tables.round}: {tables.sittingOut.join(', ')}
        </p>
      ) : null}
    </section>
  );
}

/** The director's panel for a progressive evening: players, number of rounds, seating each round. */
export function ProgressiveDirector(props: ProgressiveDirectorProps & { form: (path: string) => { action: string; target: string; csrf: string } }) {
  const { view, form } = props;
  return (
    <section class="progressive-director" aria-labelledby="progressive-title">
      <h2 id="progressive-title">Progressive evening</h2>
      <p>
        {view.roundsInEvent} rounds of 4 hands · {view.roundsStarted} started · players move by the results (table 1 is the top).
      </p>
      {props.roundsChangeable ? (
        <PostForm {...form('/round-count')} class="inline-form">
          <label>
            Number of rounds{' '}
            <input name="rounds" type="number" min={Math.max(1, view.roundsStarted)} max={99} value={String(view.roundsInEvent)} required class="narrow" />
          </label>{' '}
          <button type="submit">Change</button>
        </PostForm>
      ) : null}
      {props.status === 'registration' ? (
        <>
          <h3>Register a player</h3>
          <PostForm {...form('/players')} class="stack-form">
            <label>
              Name <input name="name" required maxlength={120} list="known-players" />
            </label>
            <label>
              Prize category (for high male / high female){' '}
              <select name="gender">
                <option value="">none</option>
                <option value="male">male</option>
                <option value="female">female</option>
              </select>
            </label>
            <button type="submit">Register the player</button>
          </PostForm>
        </>
      ) : null}
      {props.nextRound !== null ? (
        <PostForm {...form('/rounds')} class="stack-form" confirm={`Seat round ${props.nextRound}? The seating is recorded and cannot be taken back.`}>
          <button type="submit" data-action="seat-round">
            Seat round {props.nextRound}
          </button>
          <details class="advanced">
            <summary>Advanced</summary>
            <label>
              Seed for the first dealers <input name="seed" maxlength={100} aria-describedby="dealer-seed-help" />
            </label>
            <p id="dealer-seed-help" class="muted">
              The system draws each table's first dealer at random and records the draw; a seed typed here replaces that random draw, so the same seed gives the
              same first dealers.
            </p>
          </details>
        </PostForm>
      ) : props.waiting ? (
        <p>{props.waiting}</p>
      ) : null}
      {props.tables ? <DeskTables tables={props.tables} /> : null}
      {view.sitting ? <WhereToSit view={view} {...(props.tournamentId !== undefined ? { tournamentId: props.tournamentId } : {})} /> : null}
      {view.standings.length > 0 && view.roundsStarted > 0 ? <IndividualStandings view={view} /> : null}
    </section>
  );
}
