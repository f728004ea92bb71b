/**
 * Builders that let scoring and game tests write hands the way a score pad does:
 * bids in the record's forms, tricks by seat.
 */
import type { Seat, Team } from '../engine/cards.ts';
import { type Bids, parseBid } from '../engine/bid.ts';
import { PRESETS, type PresetId } from '../engine/presets.ts';
import { resolveRules } from '../engine/rules.ts';
import { type GameHand, type GameState, newGame } from '../engine/game.ts';
import { type HandScore, type RenegeRuling, type TeamState, scoreHand } from '../engine/scoring.ts';

export type RawBids = Record<Seat, number | string>;

/** Bids from their record forms; throws on a form that is not a bid. */
export function bids(raw: RawBids): Bids {
  const out = {} as Bids;
  for (const seat of ['N', 'E', 'S', 'W'] as const) {
    const bid = parseBid(raw[seat]);
    if (!bid) throw new Error(`test bid ${String(raw[seat])} for ${seat} is not a bid`);
    out[seat] = bid;
  }
  return out;
}

export interface RawHand {
  bids: RawBids;
  tricks?: Record<Seat, number>;
  firstSeven?: Team;
  reneges?: RenegeRuling[];
  dealer?: Seat;
}

/** A played hand for the game fold. */
export function played(raw: RawHand): GameHand {
  return {
    kind: 'played',
    ...(raw.dealer ? { dealer: raw.dealer } : {}),
    bids: bids(raw.bids),
    tricks: raw.tricks ?? null,
    firstSeven: raw.firstSeven ?? null,
    reneges: raw.reneges ?? [],
  };
}

/** Both teams' state, from scores (and optionally bags and sets). */
export function teams(ns: Partial<TeamState> = {}, ew: Partial<TeamState> = {}): Record<Team, TeamState> {
  return {
    NS: { score: 0, bags: 0, sets: 0, renegeDebt: 0, ...ns },
    EW: { score: 0, bags: 0, sets: 0, renegeDebt: 0, ...ew },
  };
}

/** Scores one hand under a preset from the given state (fresh when not given). */
export function score(preset: PresetId, raw: RawHand, before = teams()): HandScore {
  const hand = played(raw);
  if (hand.kind !== 'played') throw new Error('unreachable');
  return scoreHand(PRESETS[preset], before, hand);
}

/** The points each team made in one hand. */
export function points(preset: PresetId, raw: RawHand, before = teams()): Record<Team, number> {
  const result = score(preset, raw, before);
  return { NS: result.teams.NS.points, EW: result.teams.EW.points };
}

/** A new game under a preset. */
export function game(preset: PresetId, start: Parameters<typeof newGame>[1] = {}): GameState {
  return newGame(resolveRules(preset), start);
}
