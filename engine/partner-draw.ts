/**
 * Drawn partners ("blind draw"): players register alone and, once check-in closes, partners are
 * drawn from a recorded seed: the checked-in players are shuffled and paired in order, the first
 * two one team, the next two the next. With an odd count one player is left over, and the
 * director chooses what happens: that player sits out (`sit-out`), or the last player drawn also
 * partners them (`twice`: the "recycled player", on two teams). The same players and seed always
 * give the same teams, so the draw can be made again from what the ledger recorded and checked.
 */
import { createRandom, shuffleInPlace } from './random.ts';

export type OddPlayer = 'twice' | 'sit-out';

export interface DrawnTeam {
  /**
   * The team's id: its two players' ids, drawn order, joined by `+` (a character no registered
   * id holds, so no team id is a player's); past 120 characters each id is cut short.
   */
  teamId: string;
  players: [string, string];
}

export interface PartnerDraw {
  seed: string;
  teams: DrawnTeam[];
  /** With an odd count and `sit-out`: the player left without a partner. */
  sittingOut: string | null;
  /** With an odd count and `twice`: the player who plays on two teams. */
  twice: string | null;
}

/** Draws partners for `players` (checked-in ids, any order) from `seed`; throws, saying why, when they cannot make a team. */
export function drawPartners(players: readonly string[], seed: string, odd: OddPlayer): PartnerDraw {
  const seen = new Set<string>();
  for (const player of players) {
    if (typeof player !== 'string' || player.trim() === '') throw new Error('partner draw: a player id is empty');
    if (seen.has(player)) throw new Error(`partner draw: player '${player}' is listed twice`);
    seen.add(player);
  }
  if (odd !== 'twice' && odd !== 'sit-out') throw new Error(`partner draw: an odd player plays 'twice' or 'sit-out', not '${String(odd)}'`);
  if (players.length < 4) throw new Error(`partner draw: ${players.length} players checked in; it takes at least 4 to make two teams`);
  // Sorted first, so the order the players were listed in does not change the draw.
  const order = shuffleInPlace([...players].sort(), createRandom(`partners:${seed}`));
  const teams: DrawnTeam[] = [];
  const team = (a: string, b: string): DrawnTeam => {
    let teamId = `${a}+${b}`;
    if (teamId.length > TEAM_ID_MAX) teamId = `${a.slice(0, 59)}+${b.slice(0, 60)}`;
    // Two ids cut to the same: the last letter numbers them apart.
    for (let n = 2; teams.some((t) => t.teamId === teamId); n++) teamId = `${teamId.slice(0, TEAM_ID_MAX - String(n).length)}${n}`;
    return { teamId, players: [a, b] };
  };
  for (let i = 0; i + 1 < order.length; i += 2) teams.push(team(order[i]!, order[i + 1]!));
  let sittingOut: string | null = null;
  let twice: string | null = null;
  if (order.length % 2 === 1) {
    const left = order.at(-1)!;
    if (odd === 'sit-out') sittingOut = left;
    else {
      twice = order[order.length - 2]!;
      teams.push(team(left, twice));
    }
  }
  return { seed, teams, sittingOut, twice };
}

/** The longest id the ledger takes for a team. */
const TEAM_ID_MAX = 120;

/** A drawn team's name: its two players' names, drawn order. */
export function drawnTeamName(names: readonly [string, string]): string {
  return `${names[0]} & ${names[1]}`;
}

/** How an event's partners are made, in the rules sheet's words; empty for teams that register together. */
export function partnersSentence(format: { partners?: 'drawn'; oddPlayer?: OddPlayer }): string {
  if (format.partners !== 'drawn') return '';
  const odd =
    (format.oddPlayer ?? 'sit-out') === 'twice'
      ? 'the player left over also partners the last player drawn, who plays on two teams'
      : 'the player left over sits out';
  return ` Partners are drawn: players register alone, and once check-in closes the players checked in are paired at random from a recorded seed; with an odd number, ${odd}, unless the director's draw says otherwise.`;
}
