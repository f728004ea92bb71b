/**
 * Paper records for playing a structure's matches to the end through `/api/games/import`: each
 * game a short `spades-game/1` record that the chosen side wins, its margin drawn from a seed so
 * that points differ from game to game and the standings' points tiebreak has something to say.
 */
import { expect } from 'vitest';
import { createRandom } from '../engine/random.ts';
import type { MatchModel } from '../events/read-models.ts';
import { type Client, send } from './routes-fixture.ts';

type App = { request: (path: string, init: RequestInit) => Response | Promise<Response> };

/**
 * A game record under `rules` won by North–South (`winner` 'NS') or East–West, by whole hands:
 * the winners bid 4 and 4 and take 8 or 9 tricks, the losers bid 4 or 5 and take the rest (set
 * when they bid 5 and take 4). With blp-r1's 200 points the winners reach it on the third hand.
 */
export function wonRecord(rules: string, winner: 'NS' | 'EW', seed: string): Record<string, unknown> {
  const random = createRandom(seed);
  const hands = Array.from({ length: 3 }, () => {
    const won = 8 + random.int(2);
    const bid = 2 + random.int(2);
    const [a, b, c, d] = winner === 'NS' ? (['N', 'S', 'E', 'W'] as const) : (['E', 'W', 'N', 'S'] as const);
    const bids = { [a]: 4, [b]: 4, [c]: bid, [d]: 2 };
    const tricks = { [a]: 4, [b]: won - 4, [c]: 2, [d]: 13 - won - 2 };
    return { bids, tricks };
  });
  return { format: 'spades-game/1', rules, dealer: 'N', hands };
}

/** Enters one game of `match` on paper as a judge, won by `winner` (a team id of the match). */
export async function importWin(app: App, judge: Client, tournamentId: string, match: MatchModel, winner: string, rules: string, seed: string): Promise<void> {
  const side = match.teams[0] === winner ? 'NS' : 'EW';
  const res = await send(app, judge, 'POST', '/api/games/import', { json: { record: wonRecord(rules, side, seed), tournamentId, matchId: match.matchId } });
  const body = (await res.json()) as { error?: string };
  expect(res.status, body.error).toBe(201);
}
