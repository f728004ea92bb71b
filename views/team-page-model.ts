/**
 * What a team's own page tells it (the page a team opens from the bracket or the QR code on its
 * card): where to go next, the score of the match it is playing, and how it stands. A player's
 * page does the same for a progressive evening: where to sit this round, with whom, and the
 * player's total and place. Derived from the tournament's state alone, so the page and its live
 * stream say the same thing as of the same entry.
 */
import { entrantsAlone } from '../events/tournament-state.ts';
import { SEAT_NAMES, type Seat, SEATS } from '../engine/cards.ts';
import type { GameModel, MatchModel, TeamRow } from '../events/read-models.ts';
import type { PlayerStats, TeamStats } from '../events/stats-schema.ts';
import { tournamentStats } from '../events/tournament-stats.ts';
import { type WaitingParts, waitingParts } from '../events/ruling-wait.ts';
import type { TournamentState } from '../events/tournament-projection.ts';
import { bracketDraws } from './bracket.tsx';
import { reachText, record } from './team-standing.ts';
import { playerStandings } from './progressive-panels.tsx';
import { bracketSources } from '../engine/bracket.ts';
import { rankTeams, type Standing, bracketReach, ordinal, teamStandings } from '../events/standings.ts';
import { readyTables } from '../events/table-assignment.ts';
import { gameInPlay } from '../events/reopening.ts';
import { matchName } from '../events/tournament-projection.ts';
import { type LeagueRounds, leagueRounds } from '../events/league-rounds.ts';
import { TIEBREAK_WORDS, type Tiebreak } from '../engine/league-table.ts';
import { tiebreakValue } from './league-table.tsx';

/** What a team is told to do next, as the room says it. */
export interface NextStep {
  /** now: at a table and playing; seat: both teams known, not yet seated; waiting: an opponent still to come; bye: no match this round; draw: the next round not drawn yet. */
  kind: 'now' | 'seat' | 'waiting' | 'bye' | 'draw' | 'out' | 'placed' | 'champion' | 'registered' | 'withdrawn' | 'disqualified' | 'between';
  /** The large line: "Your next match: Table 4, now". */
  headline: string;
  /** The line under it: who it is against, in which round. */
  detail: string | null;
  /** The table it is (to be) played at, when known. */
  table: number | null;
  /** Its match's result waits for a ruling: "Waiting for a ruling on table 6" "for 4 minutes". */
  ruling?: WaitingParts;
}

export interface LiveScore {
  label: string;
  table: number | null;
  opponent: string;
  /** Games won in the match, ours first, when a match is more than one game. */
  games: [number, number] | null;
  bestOf: number;
  /** The game now being played (or the last one, between games). */
  game: { number: number; us: number; them: number; hand: number; over: boolean } | null;
}

export interface TeamPageModel {
  tournamentId: string;
  tournamentName: string;
  teamId: string;
  name: string;
  players: string[];
  next: NextStep;
  live: LiveScore | null;
  standing: {
    badge: Standing;
    /** The round reached in a knockout: "round 3", "out in round 2". */
    reach: string | null;
    matches: string;
    games: string;
    rank: number;
    of: number;
    points: number;
    /** In a knockout points only break ties: the page says so. */
    pointsTiebreak: boolean;
    /** A league's (round robin, Swiss): the place it holds in the table, and each tiebreak's value in words. */
    league: { place: number; shared: boolean; tiebreaks: { tiebreak: Tiebreak; words: string; value: string }[] } | null;
  };
  /** The team's decided matches, oldest first. */
  results: { label: string; opponent: string; outcome: 'won' | 'lost' | 'bye' | 'forfeit-won' | 'forfeit-lost'; games: string | null }[];
  /** What the record says about the team's hands, and each of its players'. */
  stats: { team: TeamStats; players: PlayerStats[] } | null;
  /** What later rulings undid in the team's matches: a match reopened, games voided. */
  undone: string[];
}

const OPEN: ReadonlySet<MatchModel['status']> = new Set(['waiting', 'ready', 'live']);

/** A team's page, or null when the tournament holds no such team (or is a progressive evening of players). */
export function teamPageModel(
  state: TournamentState,
  games: Readonly<Record<string, GameModel>>,
  teamId: string,
  now: string = new Date().toISOString(),
): TeamPageModel | null {
  const tournament = state.model;
  // Players alone (at progressive tables, or waiting for their partners to be drawn) have players' pages.
  if (entrantsAlone(state)) return null;
  const team = tournament.teams.find((t) => t.teamId === teamId);
  if (!team) return null;
  const names = new Map(tournament.teams.map((t) => [t.teamId, t.name]));
  const nameOf = (id: string | null) => (id === null ? 'to be decided' : (names.get(id) ?? id));
  const numbers = new Map(tournament.matches.map((m, i) => [m.matchId, i + 1]));
  const gamesToWin = state.format.gamesToWin;
  const open = tournament.matches.find((m) => OPEN.has(m.status) && m.teams.includes(teamId));
  const standings = teamStandings(tournament);
  const reach = tournament.matches.length > 0 ? bracketReach(tournament).get(teamId) : undefined;
  const ranked = rankTeams(tournament);

  const live = open?.status === 'live' ? liveScore(open, teamId, games, nameOf, gamesToWin) : null;
  const rounds = leagueRounds(state);
  const row = tournament.league?.rows.find((r) => r.teamId === teamId);
  const next = nextStep(state, team, open, numbers, nameOf, rounds);
  const ruling = open ? waitingParts(open, now) : null;
  if (ruling) next.ruling = ruling;
  const results: TeamPageModel['results'] = [];
  for (const m of tournament.matches) {
    if (!m.teams.includes(teamId) || OPEN.has(m.status)) continue;
    const other = m.teams[0] === teamId ? m.teams[1] : m.teams[0];
    const slot = m.teams[0] === teamId ? 0 : 1;
    const won = m.winner === teamId;
    const outcome = m.status === 'bye' ? 'bye' : m.status === 'forfeit' ? (won ? 'forfeit-won' : 'forfeit-lost') : won ? 'won' : 'lost';
    const count = m.status === 'done' && (gamesToWin > 1 || m.games.length > 1) ? record(m.gamesWon[slot], m.gamesWon[1 - slot]!) : null;
    results.push({ label: matchTitle(m, numbers), opponent: other === null ? '' : nameOf(other), outcome, games: count });
  }
  const undone: string[] = [];
  for (const m of tournament.matches) {
    const voided = (m.voided ?? []).filter((v) => {
      const game = games[v.gameId];
      return game !== undefined && (game.teams.NS === teamId || game.teams.EW === teamId);
    });
    if (!m.teams.includes(teamId) && voided.length === 0) continue;
    const name = matchName(state, m.matchId);
    const title = name.charAt(0).toUpperCase() + name.slice(1);
    if (m.reopened && m.teams.includes(teamId)) undone.push(`${title} was reopened by ${m.reopened.by}: its result no longer stands, and it is played on.`);
    for (const v of voided) undone.push(`${title}, game ${v.number}, was voided by ${v.by}: it no longer counts.`);
  }
  const counted = tournamentStats(state, 0).stats;
  const teamStats = counted.teams.find((t) => t.teamId === teamId);
  const stats = teamStats ? { team: teamStats, players: counted.players.filter((p) => p.teamId === teamId) } : null;
  return {
    tournamentId: tournament.tournamentId,
    tournamentName: tournament.name,
    stats,
    undone,
    teamId,
    name: team.name,
    players: team.players,
    next,
    live,
    standing: {
      badge: standings.get(teamId) ?? { label: 'Playing', short: 'Playing', tone: 'playing' },
      reach: reachText(reach),
      matches: record(team.wins, team.losses),
      games: record(team.gamesWon, team.gamesLost),
      rank: ranked.findIndex((t) => t.teamId === teamId) + 1,
      of: ranked.length,
      points: team.points,
      pointsTiebreak: tournament.matches.length > 0,
      league: row
        ? {
            place: row.place,
            shared: row.shared,
            // Head-to-head is counted only among teams level on everything before it.
            tiebreaks: tournament
              .league!.tiebreaks.filter((t) => t !== 'head-to-head' || row.headToHead !== null)
              .map((t) => ({
                tiebreak: t,
                words: TIEBREAK_WORDS[t].charAt(0).toUpperCase() + TIEBREAK_WORDS[t].slice(1),
                value: tiebreakValue(row, t),
              })),
          }
        : null,
    },
    results,
  };
}

/** "Round 2 (match 5)", "Final (match 7)". */
function matchTitle(m: MatchModel, numbers: ReadonlyMap<string, number>): string {
  return `${m.label} (match ${numbers.get(m.matchId) ?? m.matchId})`;
}

function nextStep(
  state: TournamentState,
  team: TeamRow,
  open: MatchModel | undefined,
  numbers: ReadonlyMap<string, number>,
  nameOf: (id: string | null) => string,
  rounds: LeagueRounds | null,
): NextStep {
  const tournament = state.model;
  const teamId = team.teamId;
  const step = (kind: NextStep['kind'], headline: string, detail: string | null = null, table: number | null = null): NextStep => ({
    kind,
    headline,
    detail,
    table,
  });
  const placing = placeText(tournament.placings, teamId);
  switch (team.status) {
    case 'registered':
      return step(
        'registered',
        state.checkedIn.includes(teamId)
          ? 'Checked in: your first match is drawn when the director starts the event'
          : 'Registered: when you arrive, check in below with your code, or with the director',
      );
    case 'withdrawn':
      return step('withdrawn', 'Withdrawn from the event');
    case 'disqualified': {
      const why = [...state.disqualified].reverse().find((d) => d.teamId === teamId);
      return step(
        'disqualified',
        why?.kind === 'no-show' ? 'Out of the event: a no-show' : why?.kind === 'forfeit' ? 'Out of the event: forfeited' : 'Disqualified',
        why?.reason ?? null,
      );
    }
    case 'champion':
      return step('champion', 'Champion', `${tournament.name} is yours.`);
    case 'out': {
      // The match it went out in: its round, or the final (or the match for 3rd) it finished in.
      const lost = [...tournament.matches]
        .reverse()
        .find((m) => (m.status === 'done' || m.status === 'forfeit') && m.winner !== null && m.winner !== teamId && m.teams.includes(teamId));
      if (lost && placing && (lost.side === 'final' || lost.side === 'third-place'))
        return step('placed', `Finished ${placing}`, `${matchTitle(lost, numbers)}: lost against ${nameOf(lost.winner)}`);
      const round = lost
        ? lost.side === 'losers'
          ? `Out in losers round ${lost.round}`
          : lost.side === 'winners'
            ? `Out in round ${lost.round}`
            : `Out in ${lost.label.toLowerCase()}`
        : 'Out of the event';
      return step('out', placing ? `${round}, placed ${placing}` : round, placing ? null : 'Your place is settled when the event is over.');
    }
    case 'alive':
      break;
    default: {
      const _exhaustive: never = team.status;
      return _exhaustive;
    }
  }
  if (placing && !open) return step('placed', `Finished ${placing}`);
  const league = rounds ? leagueStep(rounds, teamId, nameOf, step) : null;
  if (league) return league;
  const against = (m: MatchModel) => {
    const other = m.teams[0] === teamId ? m.teams[1] : m.teams[0];
    return `${matchTitle(m, numbers)} against ${nameOf(other)}`;
  };
  const byeNow = tournament.matches.find(
    (m) =>
      m.status === 'bye' && m.winner === teamId && tournament.matches.some((o) => o !== m && o.side === m.side && o.round === m.round && OPEN.has(o.status)),
  );
  if (open?.status === 'live') return step('now', `Your next match: Table ${open.table}, now`, against(open), open.table);
  if (open?.status === 'ready') {
    const table = readyTables(tournament.matches).get(open.matchId) ?? null;
    return step(
      'seat',
      table === null ? 'Your next match: waiting for the director to seat it' : `Your next match: Table ${table}, waiting for the director to seat it`,
      against(open),
      table,
    );
  }
  if (open?.status === 'waiting') {
    const slot = open.teams[0] === teamId ? 1 : 0;
    const source = bracketSources(state)[open.matchId]?.[slot];
    const from =
      source && (source.kind === 'winner' || source.kind === 'loser') ? `match ${numbers.get(source.match) ?? source.match}’s ${source.kind}` : 'your opponent';
    const waiting = `Your next match: ${matchTitle(open, numbers)}, waiting for ${from}`;
    if (byeNow) return step('bye', 'Bye this round', waiting);
    return step('waiting', waiting);
  }
  const drawn = bracketDraws(state);
  const lastBye = [...tournament.matches].reverse().find((m) => m.status === 'bye' && m.winner === teamId);
  const latestRound = Math.max(0, ...tournament.matches.map((m) => m.round));
  const toBeDrawn = drawn?.next
    ? `Your next match: ${drawn.next.final ? 'the final' : `round ${drawn.next.round}`}, drawn once round ${drawn.next.round - 1} is decided`
    : null;
  if (lastBye && drawn && lastBye.round === latestRound && tournament.matches.some((o) => o.round === latestRound && OPEN.has(o.status)))
    return step('bye', 'Bye this round', toBeDrawn);
  if (toBeDrawn) return step('draw', toBeDrawn);
  return step('between', 'Waiting for your next match');
}

/**
 * A league team's next step, round by round: "Round 3: table 5 against Big Books", the bye, or
 * the round still to be paired; null when it has nothing left to play.
 */
function leagueStep(
  rounds: LeagueRounds,
  teamId: string,
  nameOf: (id: string | null) => string,
  step: (kind: NextStep['kind'], headline: string, detail?: string | null, table?: number | null) => NextStep,
): NextStep | null {
  for (const round of rounds.rounds) {
    const pairing = round.pairings.find((p) => p.state !== 'decided' && p.teams.includes(teamId));
    if (!pairing) {
      if (round.bye === teamId && !round.decided)
        return step('bye', `Round ${round.round}: a bye`, rounds.byeIsWin ? 'It counts as a match won.' : 'You sit this round out.');
      continue;
    }
    const other = nameOf(pairing.teams[0] === teamId ? pairing.teams[1] : pairing.teams[0]);
    const which = pairing.pool ? `Pool ${pairing.pool}, round ${round.round}` : `Round ${round.round}`;
    if (pairing.state === 'playing') return step('now', `${which}: table ${pairing.table ?? '—'} against ${other}, now`, 'Playing now', pairing.table);
    if (pairing.table !== null) return step('seat', `${which}: table ${pairing.table} against ${other}`, 'Waiting for the director to seat it', pairing.table);
    return step('waiting', `${which}: against ${other}`, 'Its table is given once both teams are free.');
  }
  if (rounds.toPair !== null) return step('draw', `Round ${rounds.toPair}: paired from the standings once round ${rounds.toPair - 1} is over`);
  return null;
}

/** "5th–8th" for a place shared by four teams, "2nd" for one; null when the team has no place yet. */
export function placeText(placings: readonly { place: number; teamId: string }[], teamId: string): string | null {
  const mine = placings.find((p) => p.teamId === teamId);
  if (!mine) return null;
  const shared = placings.filter((p) => p.place === mine.place).length;
  return shared > 1 ? `${ordinal(mine.place)}–${ordinal(mine.place + shared - 1)}` : ordinal(mine.place);
}

function liveScore(
  m: MatchModel,
  teamId: string,
  games: Readonly<Record<string, GameModel>>,
  nameOf: (id: string | null) => string,
  gamesToWin: number,
): LiveScore {
  const slot = m.teams[0] === teamId ? 0 : 1;
  // The game being played (a reopened one before those after it), else the last that still counts.
  const standing = m.games.filter((id) => !m.voided?.some((v) => v.gameId === id));
  const game = gameInPlay(m, games) ?? (standing.length > 0 ? games[standing.at(-1)!] : undefined);
  let now: LiveScore['game'] = null;
  if (game) {
    const side = game.teams.NS === teamId ? 'NS' : 'EW';
    const other = side === 'NS' ? 'EW' : 'NS';
    now = { number: game.number, us: game.score[side], them: game.score[other], hand: game.current?.number ?? game.rows.length, over: game.winner !== null };
  }
  return {
    label: m.label,
    table: m.table,
    opponent: nameOf(m.teams[1 - slot]!),
    games: gamesToWin > 1 ? [m.gamesWon[slot], m.gamesWon[1 - slot]!] : null,
    bestOf: 2 * gamesToWin - 1,
    game: now,
  };
}

// ── A player in a progressive evening ───────────────────────────────────────────────────────

const PARTNER: Record<Seat, Seat> = { N: 'S', S: 'N', E: 'W', W: 'E' };

export interface PlayerPageModel {
  tournamentId: string;
  tournamentName: string;
  playerId: string;
  name: string;
  /** Where to sit, as the large line says it, and what goes under it. */
  next: { kind: 'sit' | 'playing' | 'sit-out' | 'registered' | 'finished' | 'between'; headline: string; detail: string | null; table: number | null };
  /** The game at the player's table this round, while it is played. */
  live: { table: number; us: number; them: number; hand: number; over: boolean } | null;
  total: number;
  /** Where the player stands now, in the standings' words ("table 2, North", "sitting out round 3", "2nd place, shared"). */
  standing: string | null;
  place: number | null;
  /** Whether others share the place. */
  shared: boolean;
  of: number;
  roundsInEvent: number;
  /** Each round the player has had: where, with whom, and the score once the round is over. */
  rounds: { round: number; where: string; score: number | null }[];
  /** What the record says about the player's hands. */
  stats: PlayerStats | null;
}

/** A player's page in a progressive evening, or null when the tournament holds no such player. */
export function playerPageModel(state: TournamentState, games: Readonly<Record<string, GameModel>>, playerId: string): PlayerPageModel | null {
  const p = state.progressive;
  if (!p) return null;
  const player = p.players.find((x) => x.playerId === playerId);
  if (!player) return null;
  const names = new Map(state.model.teams.map((t) => [t.teamId, t.name]));
  const nameOf = (id: string) => names.get(id) ?? id;
  const roundsInEvent = state.format.rounds ?? 1;
  type Table = NonNullable<typeof p.nextSeating>[number];
  const seatIn = (seating: readonly Table[]): { table: Table; seat: Seat } | null => {
    for (const table of seating) for (const seat of SEATS) if (table.seats[seat] === playerId) return { table, seat };
    return null;
  };
  const placeOf = (where: { table: Table; seat: Seat }) => {
    const partner = nameOf(where.table.seats[PARTNER[where.seat]]);
    const opponents = SEATS.filter((s) => s !== where.seat && s !== PARTNER[where.seat]).map((s) => nameOf(where.table.seats[s]));
    return { at: `Table ${where.table.table}, ${SEAT_NAMES[where.seat]}`, with: `Partner ${partner}, against ${opponents.join(' & ')}` };
  };

  const rounds: PlayerPageModel['rounds'] = p.rounds.map((r) => {
    const where = seatIn(r.seating);
    return {
      round: r.round,
      where: where ? `${placeOf(where).at} · ${placeOf(where).with}` : 'Sat out (the round’s average)',
      score: r.scores?.[playerId] ?? null,
    };
  });

  let next: PlayerPageModel['next'];
  let live: PlayerPageModel['live'] = null;
  const last = p.rounds.at(-1);
  if (p.nextSeating) {
    const round = p.rounds.length + 1;
    const where = seatIn(p.nextSeating);
    if (where) {
      const place = placeOf(where);
      next = {
        kind: 'sit',
        headline: `Round ${round}: sit at ${place.at}`,
        detail: `${place.with}. The round starts when the director seats it.`,
        table: where.table.table,
      };
    } else next = { kind: 'sit-out', headline: `You sit out round ${round}`, detail: 'You score the round’s average, rounded.', table: null };
  } else if (last && !last.results) {
    const where = seatIn(last.seating);
    if (where) {
      const place = placeOf(where);
      next = { kind: 'playing', headline: `Round ${last.round}, now: ${place.at}`, detail: place.with, table: where.table.table };
      const game = games[last.games[String(where.table.table)] ?? ''];
      if (game) {
        const side = where.seat === 'N' || where.seat === 'S' ? 'NS' : 'EW';
        live = {
          table: where.table.table,
          us: game.score[side],
          them: game.score[side === 'NS' ? 'EW' : 'NS'],
          hand: game.current?.number ?? game.rows.length,
          over: game.winner !== null,
        };
      }
    } else
      next = {
        kind: 'sit-out',
        headline: `You sit out round ${last.round}`,
        detail: 'You score the round’s average, rounded, once every table has finished.',
        table: null,
      };
  } else if (state.model.status === 'finished') {
    next = { kind: 'finished', headline: 'The evening is over', detail: null, table: null };
  } else if (state.model.status === 'registration') {
    next = { kind: 'registered', headline: 'Registered: the first seating is drawn when the director starts the evening', detail: null, table: null };
  } else {
    next = { kind: 'between', headline: 'Waiting for the next seating', detail: p.problem ?? null, table: null };
  }

  const standing = p.standings.find((s) => s.playerId === playerId);
  return {
    tournamentId: state.model.tournamentId,
    tournamentName: state.model.name,
    stats: tournamentStats(state, 0).stats.players.find((x) => x.playerId === playerId) ?? null,
    playerId,
    name: player.name,
    next,
    live,
    total: player.total,
    standing: playerStandings(state).get(playerId)?.label ?? null,
    place: standing?.place ?? null,
    shared: standing ? p.standings.filter((s) => s.place === standing.place).length > 1 : false,
    of: p.standings.length,
    roundsInEvent,
    rounds,
  };
}
