/**
 * What the judge console shows, worked out from the read models: the claim queue with the
 * tricks around each claim and what the engine finds in them, the penalty a ruling carries,
 * clocked matches, the rulings made so far, and the digest that tells a judge's page when to
 * fetch its console again. The routes that act on it are in judge-routes.tsx.
 */
import { createHash } from 'node:crypto';
import { SEAT_NAMES, type Seat, type Team, parseCard, seatAfter, teamOf } from '../../engine/cards.ts';
import { deckFor } from '../../engine/deck.ts';
import { misdealWords, renegeSentence } from '../../engine/rule-lines.ts';
import { resolveRules } from '../../engine/rules.ts';
import { replayPlays } from '../../engine/trick.ts';
import { handSoFar } from '../../events/game-projection.ts';
import type { GameModel } from '../../events/read-models.ts';
import type { ReadModels } from '../../events/projections.ts';
import { gameById, tournamentById } from '../../events/lookup.ts';
import { holdingClaims } from '../../events/tournament-projection.ts';
import { waitingParts } from '../../events/ruling-wait.ts';
import type { ClaimCase, JudgeConsoleProps, PendingDisqualification, PendingRuling, PendingWithdrawal } from '../../views/judge-console.tsx';
import { REFUSED_KINDS, rulingEffect } from '../commands/ruling-withdrawals.ts';
import { clockText } from '../../views/match-clock.tsx';
import type { Session } from '../auth/sessions.ts';
import { tableOfGame } from '../auth/table-codes.ts';
import { replayLink } from '../../events/addresses.ts';

/** A team's name in its tournament, or its id when it has none there. */
export function teamName(models: ReadModels, tournamentId: string | null, teamId: string): string {
  return (tournamentId && tournamentById(models, tournamentId)?.model.teams.find((t) => t.teamId === teamId)?.name) || teamId;
}

/**
 * What a judge's console shows: the claims waiting for a ruling (longest first), misdeals,
 * clocked matches, the teams and games a judge may act on, and the rulings made so far.
 */
export function judgeConsoleProps(
  models: ReadModels,
  now: () => string,
  session: Session,
  notice: { error?: string; done?: string } = {},
  confirm: PendingDisqualification | null = null,
  confirmRuling: PendingRuling | null = null,
  confirmWithdrawal: PendingWithdrawal | null = null,
): JudgeConsoleProps {
  const games = Object.values(models.games);
  const claims: { position: number; claim: ClaimCase }[] = [];
  const rulings: JudgeConsoleProps['rulings'] = [];
  for (const game of games) {
    for (const claim of game.claims) {
      if (!claim.ruling) claims.push({ position: claim.position, claim: claimCase(models, game, claim, now()) });
      else {
        const r = claim.ruling;
        const ref = { claimId: claim.claimId };
        rulings.push({
          at: r.at,
          judge: r.judge,
          text: `${r.upheld ? 'upheld' : 'denied'} the renege claim against ${SEAT_NAMES[claim.seat]} (${gameLabel(models, game)}, hand ${claim.hand}${claim.trick !== null ? `, trick ${claim.trick}` : ''})${r.note ? `: ${r.note}` : ''}`,
          effect: r.withdrawn
            ? 'none: withdrawn'
            : effectText(
                models,
                game,
                rulingEffect(game, ref, models.position + 1),
                game.hands.length >= claim.hand ? `hand ${claim.hand}` : `hand ${claim.hand}, once it is scored`,
              ),
          withdrawn: r.withdrawn ?? null,
          withdraw: { gameId: game.gameId, ...ref },
        });
      }
    }
    for (const c of game.corrections) {
      const names = { NS: teamName(models, game.tournamentId, game.teams.NS), EW: teamName(models, game.tournamentId, game.teams.EW) };
      rulings.push({
        at: c.at,
        judge: c.judge,
        text: `corrected ${gameLabel(models, game)} by ${names.NS} ${signed(c.points.NS)}, ${names.EW} ${signed(c.points.EW)}: ${c.reason}`,
        effect: c.withdrawn ? 'none: withdrawn' : effectText(models, game, c.points, 'on the game'),
        withdrawn: c.withdrawn ?? null,
        withdraw: { gameId: game.gameId, correction: c.position },
      });
    }
  }
  const matches: JudgeConsoleProps['matches'] = [];
  const teams: JudgeConsoleProps['teams'] = [];
  for (const state of Object.values(models.tournaments)) {
    const t = state.model;
    if (t.status === 'finished') continue;
    const name = (id: string | null) => (id ? teamName(models, t.tournamentId, id) : 'to be decided');
    for (const m of t.matches) {
      if (m.status !== 'live' || !m.clock) continue;
      const left = Date.parse(m.clock.startedAt) + m.clock.minutes * 60_000 - Date.parse(now());
      matches.push({
        tournamentId: t.tournamentId,
        matchId: m.matchId,
        label: `${t.name} · ${m.table !== null ? `Table ${m.table} · ` : ''}${m.label}: ${name(m.teams[0])} vs ${name(m.teams[1])}`,
        clock: `${m.clock.calledAt ? 'time called' : `${clockText(left)} left`}${m.clock.gameId ? ` in game ${m.games.length}` : ''}`,
      });
    }
    for (const team of t.teams) {
      if (team.status !== 'disqualified' && team.status !== 'withdrawn' && team.status !== 'out')
        teams.push({ tournamentId: t.tournamentId, teamId: team.teamId, name: team.name, tournament: t.name });
    }
    for (const c of state.corrections) {
      const game = gameById(models, c.gameId);
      rulings.push({
        at: c.at,
        judge: c.judge,
        text: `ruled ${teamName(models, t.tournamentId, c.winner)} the winner of ${game ? gameLabel(models, game) : `game ${c.gameId}`}: ${c.reason}`,
        fixed: REFUSED_KINDS.result,
      });
    }
  }
  rulings.sort((a, b) => b.at.localeCompare(a.at));
  return {
    csrf: session.csrf,
    judge: session.name,
    // One queue for every tournament: the claim waiting longest first.
    claims: claims.sort((a, b) => a.position - b.position).map((c) => c.claim),
    misdeals: games
      .filter((g) => !g.winner)
      .flatMap((g) => g.rows.filter((r) => r.misdeal).map((r) => ({ label: gameLabel(models, g), hand: r.number, reason: misdealWords(r.misdeal!) }))),
    matches,
    teams,
    games: games
      .filter((g) => g.tournamentId === null || tournamentById(models, g.tournamentId)?.model.status !== 'finished')
      .map((g) => ({
        tournamentId: g.tournamentId,
        gameId: g.gameId,
        label: gameLabel(models, g),
        finished: Boolean(g.winner),
        teams: { NS: teamName(models, g.tournamentId, g.teams.NS), EW: teamName(models, g.tournamentId, g.teams.EW) },
        teamIds: g.teams,
      })),
    rulings,
    confirm,
    confirmRuling,
    confirmWithdrawal,
    error: notice.error ?? null,
    done: notice.done ?? null,
  };
}

/** A renege claim as the judge sees it: the tricks around it, what the engine finds, the penalty at stake. */
function claimCase(models: ReadModels, game: GameModel, claim: GameModel['claims'][number], now: string): ClaimCase {
  const deck = deckFor(resolveRules(game.rules).options);
  const current = game.current && game.current.number === claim.hand ? game.current : null;
  const record = current ? null : game.hands[claim.hand - 1];
  const plays = current?.plays ?? record?.plays ?? [];
  const dealer = current?.dealer ?? record?.dealer ?? game.dealer;
  let detected: { seat: Seat; trick: number }[];
  let tricks: ClaimCase['tricks'] = [];
  try {
    const result = current
      ? handSoFar(game)!
      : replayPlays(
          deck,
          dealer,
          plays.map((t) => t.map((n) => parseCard(n)!)),
        );
    detected = current ? result.reneges : (game.rows[claim.hand - 1]?.reneges ?? result.reneges);
    const around = claim.trick === null ? result.tricks.map((_, i) => i + 1) : [claim.trick - 1, claim.trick, claim.trick + 1];
    tricks = around
      .filter((n) => n >= 1 && n <= result.tricks.length)
      .map((n) => {
        const t = result.tricks[n - 1]!;
        return { number: n, claimed: n === claim.trick, cards: plays[n - 1]!.map((card, i) => ({ seat: seatAfter(t.leader, i), card })) };
      });
  } catch {
    detected = [];
  }
  const found =
    detected.length === 0
      ? 'The engine finds no renege in the recorded plays of this hand.'
      : `The engine finds: ${detected.map((d) => `renege by ${SEAT_NAMES[d.seat]} at trick ${d.trick}`).join('; ')}.`;
  const options = resolveRules(game.rules).options;
  const state = game.tournamentId ? tournamentById(models, game.tournamentId) : undefined;
  const tournament = state?.model;
  const match = tournament?.matches.find((m) => m.matchId === game.matchId);
  const accused = teamOf(claim.seat);
  // A claim made before its match was decided holds the match's result until it is ruled on.
  const holding = state && match && holdingClaims(state, game).some((c) => c.claimId === claim.claimId);
  const wait = holding ? waitingParts({ table: match.table, label: match.label, awaitingRuling: { since: claim.at, claims: 1 } }, now) : null;
  return {
    gameId: game.gameId,
    claimId: claim.claimId,
    tournament: tournament?.name ?? null,
    table: tableOfGame(models, game),
    round: match ? `${match.label}, game ${game.number}` : `game ${game.number}`,
    teams: { NS: teamName(models, game.tournamentId, game.teams.NS), EW: teamName(models, game.tournamentId, game.teams.EW) },
    accusedTeam: teamName(models, game.tournamentId, game.teams[accused]),
    hand: claim.hand,
    seat: claim.seat,
    trick: claim.trick,
    claimedAt: claim.at,
    replay: `${replayLink(game.gameId, claim.hand)}${claim.trick !== null ? `#trick-${claim.trick}` : ''}`,
    tricks,
    detected: plays.length === 0 ? 'No cards were recorded for this hand, so the engine cannot check it; rule on what the table says.' : found,
    penalty: renegeSentence(options),
    holds: wait ? { prefix: `Holds ${match!.label}’s result: `, parts: { ...wait, lead: `${wait.lead[0]!.toLowerCase()}${wait.lead.slice(1)}` } } : null,
  };
}

/** What a ruling does to the score, team by team: "-130 to Aces High (N/S), hand 4"; "no change to the score" when nothing. */
export function effectText(models: ReadModels, game: GameModel, points: Record<Team, number>, where: string): string {
  const parts = (['NS', 'EW'] as const)
    .filter((team) => points[team] !== 0)
    .map((team) => `${signed(points[team])} to ${teamName(models, game.tournamentId, game.teams[team])} (${team === 'NS' ? 'N/S' : 'E/W'})`);
  return parts.length === 0 ? `no change to the score (${where})` : `${parts.join(', ')}, ${where}`;
}

/** A number of points with its sign: +20, -10, 0. */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** A game as people name it: "Spring Cup, Table 3: Aces High vs Big Books, game 1". */
export function gameLabel(models: ReadModels, game: GameModel): string {
  const tournament = game.tournamentId ? tournamentById(models, game.tournamentId)?.model : undefined;
  const name = (id: string) => tournament?.teams.find((t) => t.teamId === id)?.name ?? id;
  const table = tableOfGame(models, game);
  const where = [tournament?.name, table !== null ? `Table ${table}` : null].filter(Boolean).join(', ');
  return `${where ? `${where}: ` : ''}${name(game.teams.NS)} vs ${name(game.teams.EW)}, game ${game.number}`;
}

/**
 * A digest of everything the console shows, but the ages and clocks that tick by themselves:
 * the console's live stream sends a new one only when it changes, and the page then fetches
 * its console again. A card played at a table changes nothing here unless a claim waits on
 * that hand.
 */
export function judgeVersion(models: ReadModels): string {
  const parts: unknown[] = [];
  for (const game of Object.values(models.games)) {
    const open = game.claims.filter((c) => !c.ruling);
    const claimedHands = new Set(open.map((c) => c.hand));
    const playsInClaimedHand = game.current && claimedHands.has(game.current.number) ? game.current.plays.flat().length : 0;
    parts.push([
      game.gameId,
      game.winner,
      game.claims.map((c) => [c.claimId, c.ruling?.position ?? 0, c.ruling?.withdrawn?.position ?? 0]),
      game.rows.filter((r) => r.misdeal).length,
      game.corrections.map((c) => c.withdrawn?.position ?? 0),
      // What a ruling's effect reads moves with the hands scored after it.
      game.claims.some((c) => c.ruling) || game.corrections.length > 0 ? [game.score, game.hands.length] : null,
      playsInClaimedHand,
      game.matchId ? tableOfGame(models, game) : null,
    ]);
  }
  for (const state of Object.values(models.tournaments)) {
    const t = state.model;
    parts.push([
      t.tournamentId,
      t.status,
      t.teams.map((team) => [team.teamId, team.status]),
      t.matches.filter((m) => m.status === 'live').map((m) => [m.matchId, m.table, m.clock?.calledAt ?? null, m.clock?.startedAt ?? null]),
      state.corrections.length,
    ]);
  }
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}
