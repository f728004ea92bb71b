/**
 * What a late ruling would change, worked out before it is given: the hypothetical events are
 * folded over a copy of the current models by the very projections that would fold them once
 * recorded, and the tournament before is compared with the tournament after. A ruling (a score
 * correction, a corrected result, a disqualification, a withdrawal) that would take back or
 * change a decided match is a reopening: the console shows these consequences and the command
 * is given only when asked as one.
 */
import { seatName } from '../engine/cards.ts';
import type { GameModel, MatchModel, TeamRow } from './read-models.ts';
import { type ReadModels, applyEvent } from './projections.ts';
import { type TournamentState, matchName } from './tournament-projection.ts';
import { gameById, own, tournamentById } from './lookup.ts';
import { tournamentStats } from './tournament-stats.ts';
import type { StatsTotals } from './stats-schema.ts';

/** An event a command would append, before it has a position. */
export interface HypotheticalEvent {
  type: string;
  payload: unknown;
}

/** One game a reopening voids: where it was played and the result it no longer gives. */
export interface VoidedGame {
  gameId: string;
  matchId: string;
  /** "the Final, game 2". */
  where: string;
  /** "Big Joker Energy won 397 to 178", or the score so far of a game still being played. */
  result: string;
}

/** What a reopening would do to one tournament. */
export interface Reopening {
  tournamentId: string;
  /** Decided matches whose result is taken back or changes hands, each in a sentence. */
  reopened: { matchId: string; name: string; was: string; now: string }[];
  /** Played matches whose teams change, to be played again between the right teams. */
  replayed: { matchId: string; name: string }[];
  /** Games that stop counting. */
  voided: VoidedGame[];
  /** Teams whose place in the event moves: where each stood, and where it stands after. */
  moved: { teamId: string; name: string; from: string; to: string }[];
  /** The tournament as it would be: standings, matches and statistics are read from it. */
  after: TournamentState;
  /** The statistics totals before and after, so the preview says what stops counting. */
  stats: { before: StatsTotals; after: StatsTotals };
}

/**
 * Folds `events` over a copy of the models (the live ones are untouched) and says what they
 * would change in the tournament they belong to; null when they take back or change no decided
 * match, so the ruling is an ordinary one.
 */
export function reopeningOf(models: ReadModels, events: readonly HypotheticalEvent[], at: string): Reopening | null {
  const copy: ReadModels = { ...models, games: { ...models.games }, tournaments: { ...models.tournaments }, streams: { ...models.streams } };
  let tournamentId: string | null = null;
  for (const event of events) {
    const payload = event.payload as { gameId?: string; tournamentId?: string };
    const game = payload.gameId ? gameById(models, payload.gameId) : undefined;
    if (game && copy.games[game.gameId] === game) copy.games[game.gameId] = structuredClone(game);
    const id = payload.tournamentId ?? game?.tournamentId ?? null;
    if (id && tournamentById(models, id) && copy.tournaments[id] === models.tournaments[id]) copy.tournaments[id] = structuredClone(models.tournaments[id]!);
    tournamentId ??= id;
  }
  if (!tournamentId) return null;
  const before = tournamentById(models, tournamentId);
  if (!before?.bracket) return null;
  const from = models.position;
  events.forEach((event, i) => applyEvent(copy, { position: from + i + 1, type: event.type, payload: event.payload, at }));
  const after = copy.tournaments[tournamentId]!;
  const newSince = (position: number | undefined) => position !== undefined && position > from;

  const reopened = after.model.matches
    .filter((m) => newSince(own(after.reopened, m.matchId)))
    .map((m) => {
      const was = before.model.matches.find((x) => x.matchId === m.matchId)!;
      return {
        matchId: m.matchId,
        name: matchName(after, m.matchId),
        was: resultText(before, was),
        now: m.status === 'done' ? resultText(after, m) : 'not decided: play goes on',
      };
    });
  if (reopened.length === 0) return null;
  const voided = Object.keys(after.voided)
    .filter((gameId) => newSince(after.voided[gameId]) && own(before.voided, gameId) === undefined)
    .map((gameId) => voidedGame(before, copy.games[gameId]!))
    .filter((v): v is VoidedGame => v !== null);
  // Played again: a played match whose teams changed, and a match whose games so far are voided.
  const again = new Set([...after.reviews.filter((r) => newSince(r.position)).map((r) => r.matchId), ...voided.map((v) => v.matchId)]);
  const replayed = after.model.matches.filter((m) => again.has(m.matchId)).map((m) => ({ matchId: m.matchId, name: matchName(after, m.matchId) }));
  const moved = before.model.teams.flatMap((row) => {
    const was = whereTeamStands(before, row);
    const now = whereTeamStands(after, after.model.teams.find((t) => t.teamId === row.teamId)!);
    return was === now ? [] : [{ teamId: row.teamId, name: row.name, from: was, to: now }];
  });
  return {
    tournamentId,
    reopened,
    replayed,
    voided,
    moved,
    after,
    stats: { before: tournamentStats(before, from).stats.totals, after: tournamentStats(after, from + events.length).stats.totals },
  };
}

/** A reopening in one plain paragraph: what reopens, which games are voided, which matches are replayed, which teams move. */
export function reopeningText(reopening: Reopening): string {
  const parts = reopening.reopened.map(
    (r) =>
      `${r.name} (${r.was}) is ${r.now === 'not decided: play goes on' ? 'reopened: it is not decided, and play goes on' : `decided the other way: ${r.now}`}`,
  );
  if (reopening.voided.length > 0)
    parts.push(`${listed(reopening.voided.map((v) => `${v.where} (${v.result})`))} ${reopening.voided.length === 1 ? 'is' : 'are'} voided`);
  if (reopening.replayed.length > 0)
    parts.push(`${listed(reopening.replayed.map((r) => r.name))} ${reopening.replayed.length === 1 ? 'is' : 'are'} played again`);
  for (const m of reopening.moved) parts.push(`${m.name} moves from ${m.from} to ${m.to}`);
  return `${parts.join('; ')}.`;
}

function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function nameIn(state: TournamentState, teamId: string | null): string {
  return teamId === null ? 'a team still to be decided' : (state.model.teams.find((t) => t.teamId === teamId)?.name ?? teamId);
}

function resultText(state: TournamentState, match: MatchModel): string {
  if (match.status !== 'done' || match.winner === null) return `${nameIn(state, match.teams[0])} v ${nameIn(state, match.teams[1])}, not decided`;
  const slot = match.teams[0] === match.winner ? 0 : 1;
  return `${nameIn(state, match.winner)} beat ${nameIn(state, match.teams[1 - slot]!)} ${match.gamesWon[slot]}–${match.gamesWon[1 - slot]}`;
}

function voidedGame(state: TournamentState, game: GameModel): VoidedGame | null {
  if (!game.matchId) return null;
  const name = (team: 'NS' | 'EW') => nameIn(state, game.teams[team]);
  const result = game.winner
    ? `${name(game.winner)} won ${game.score[game.winner]} to ${game.score[game.winner === 'NS' ? 'EW' : 'NS']}`
    : `${name('NS')} ${game.score.NS}, ${name('EW')} ${game.score.EW} so far`;
  return { gameId: game.gameId, matchId: game.matchId, where: `${matchName(state, game.matchId)}, game ${game.number}`, result };
}

/** Where a team stands, in words: the match it plays or waits for next, or how its event ended. */
export function whereTeamStands(state: TournamentState, row: TeamRow): string {
  const open = state.model.matches.find((m) => (m.status === 'live' || m.status === 'ready' || m.status === 'waiting') && m.teams.includes(row.teamId));
  if (open) return open.status === 'live' ? `playing ${matchName(state, open.matchId)}` : `due in ${matchName(state, open.matchId)}`;
  switch (row.status) {
    case 'champion':
      return 'champion';
    case 'out':
      return 'out of the event';
    case 'disqualified':
      return 'out of the event (disqualified)';
    default:
      return 'waiting for its next match';
  }
}

/** What undid a game, for its table page and its replay. */
export interface GameUndoing {
  /** voided: its match no longer puts its teams there; reopened: a ruling took its result back and play resumes. */
  kind: 'voided' | 'reopened';
  /** The ledger position of the ruling. */
  position: number;
  /** The ruling in words, with where it was made ("a renege ruling against South in Round 1 (match 6), game 1, hand 7"). */
  ruling: string;
}

/** What undid a game, or null when nothing did (or the game stands as decided). */
export function gameUndoing(models: ReadModels, game: GameModel): GameUndoing | null {
  const state = game.tournamentId ? tournamentById(models, game.tournamentId) : undefined;
  if (!state || !game.matchId) return null;
  const voided = state.voided?.[game.gameId];
  if (voided !== undefined) return { kind: 'voided', position: voided, ruling: rulingAt(models, state, voided) };
  const reopened = state.model.matches.find((m) => m.matchId === game.matchId)?.reopened;
  if (!reopened || game.winner) return null;
  // The game the ruling was on is the one it reopened.
  const on = rulingGame(models, state, reopened.position);
  return on === game.gameId ? { kind: 'reopened', position: reopened.position, ruling: rulingAt(models, state, reopened.position) } : null;
}

/** The games of a tournament's matches. */
function gamesOf(models: ReadModels, state: TournamentState): GameModel[] {
  return Object.values(state.matchInfo).flatMap((info) => info.games.flatMap((id) => gameById(models, id) ?? []));
}

/** The game a ruling at `position` was made on, when it was made on a game. */
function rulingGame(models: ReadModels, state: TournamentState, position: number): string | null {
  for (const game of gamesOf(models, state)) {
    if (game.claims.some((c) => c.ruling?.position === position || c.ruling?.withdrawn?.position === position)) return game.gameId;
    if (game.corrections.some((c) => c.position === position || c.withdrawn?.position === position)) return game.gameId;
  }
  return state.corrections.find((c) => c.position === position)?.gameId ?? null;
}

/** The ruling recorded at `position`, in words, with where it was made. */
export function rulingAt(models: ReadModels, state: TournamentState, position: number): string {
  const where = (game: GameModel) => `${game.matchId ? matchName(state, game.matchId) : `game ${game.gameId}`}, game ${game.number}`;
  for (const game of gamesOf(models, state)) {
    for (const c of game.claims) {
      if (c.ruling?.position === position) return `a renege ruling against ${seatName(c.seat)} in ${where(game)}, hand ${c.hand}`;
      if (c.ruling?.withdrawn?.position === position) return `the withdrawal of a renege ruling in ${where(game)}, hand ${c.hand}`;
    }
    for (const c of game.corrections) {
      if (c.position === position) return `a score correction in ${where(game)}`;
      if (c.withdrawn?.position === position) return `the withdrawal of a score correction in ${where(game)}`;
    }
  }
  const result = state.corrections.find((c) => c.position === position);
  const corrected = result ? gameById(models, result.gameId) : undefined;
  if (corrected) return `a result correction in ${where(corrected)}`;
  const out = state.disqualified.find((d) => d.position === position);
  if (out) return `the disqualification of ${nameIn(state, out.teamId)}`;
  return state.causes?.[String(position)] ?? 'a later ruling';
}

/**
 * The game of a match being played: the first of its games still counting that is not over (a
 * game a ruling reopened comes before the games played after it), or null between games.
 */
export function gameInPlay(match: Pick<MatchModel, 'games' | 'voided'>, games: Readonly<Record<string, GameModel>>): GameModel | null {
  for (const gameId of match.games) {
    if (match.voided?.some((v) => v.gameId === gameId)) continue;
    const game = own(games, gameId);
    if (game && !game.winner && !game.abandoned) return game;
  }
  return null;
}

/**
 * What the ruling at `position` undid in its tournament, in one sentence ("It reopened Round 1
 * (match 6) and voided the Final, game 1."), or null when it undid nothing.
 */
export function rulingConsequences(models: ReadModels, tournamentId: string, position: number): string | null {
  const state = tournamentById(models, tournamentId);
  if (!state) return null;
  const reopened = Object.keys(state.reopened ?? {})
    .filter((matchId) => state.reopened[matchId] === position)
    .map((matchId) => matchName(state, matchId));
  const voided = Object.keys(state.voided ?? {})
    .filter((gameId) => state.voided[gameId] === position)
    .flatMap((gameId) => {
      const game = gameById(models, gameId);
      return game?.matchId ? [`${matchName(state, game.matchId)}, game ${game.number}`] : [];
    });
  const parts = [reopened.length > 0 ? `reopened ${listed(reopened)}` : null, voided.length > 0 ? `voided ${listed(voided)}` : null].filter(Boolean);
  return parts.length > 0 ? `It ${parts.join(' and ')}.` : null;
}
