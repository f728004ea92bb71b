/**
 * A double-elimination bracket drawn round by round (blp-2024: "With an odd number of teams, a
 * team representative will select a card. The highest card drawn will receive a BYE"; rules.md
 * reads it as a bye in any round with an odd count, in either bracket, and never a bracket
 * padded to a power of two).
 *
 * Each round pairs the unbeaten teams among themselves (the winners' bracket) and the teams
 * with one loss among themselves (the losers' bracket). In a group with an odd count one team
 * sits out on a bye: the highest card of a recorded high-card draw among the group's teams
 * that have had no bye yet (all of them draw once every one has had one; a withdrawn team does
 * not draw). Everyone else plays. Winners of the winners' bracket stay unbeaten and its losers
 * drop to the losers' bracket; a loser in the losers' bracket is out. A group of one team while
 * the other group still has several waits: it is not a bye (it draws no card and is not marked
 * as having had one), since it has nobody to play until the other group is down to one. When
 * one unbeaten and one one-loss team remain they play the final (`F`, one match, no reset).
 * Every match but the byes gives one loss, and everyone but the champion ends with two losses
 * (the runner-up with one when the unbeaten team loses the final), so the event plays 2n-2
 * matches for n teams.
 *
 * Pairing is deterministic. Round 1: the teams in seed order without the one on a bye, top seed
 * v bottom seed, second v second-to-last, and so on. Later rounds: each group's teams in the
 * order of the matches they come from (bracket order: a round's winners'-bracket matches, then
 * its losers'-bracket ones), paired first v last in the same way, so in the losers' bracket the
 * teams that just dropped meet the ones that survived it.
 *
 * Each round is expressed in engine/bracket.ts terms: a slot is the winner or loser of an
 * earlier match (round 1: a seeded team), a bye is a match with one `bye` slot. So results,
 * forfeits, corrections (later matches under review, never erased) and placings work as in a
 * bracket built whole; a correction moves the team in a slot, and a drawn round stands as drawn.
 * Match ids: `W<round>-<n>` (winners' bracket), `L<round>-<n>` (losers' bracket), `F`.
 */
import { type Bracket, type BracketMatch, type BracketState, type MatchView, type SlotSource, checkTeams, linkRoutes, matchViews } from './bracket.ts';
import { drawFromSeed } from './formats.ts';
import { type DrawRound, drawHighCard } from './seeding.ts';

export type RoundGroup = 'winners' | 'losers';

/** One group's bye in a drawn round, as recorded. */
export interface GroupDraw {
  group: RoundGroup;
  /** The teams that drew for the bye. */
  teams: string[];
  /** The cards drawn, one entry per redraw of the teams tied for the highest; empty when one team alone could draw. */
  cards: DrawRound[];
  /** The team with the highest card: it sits out this round. */
  bye: string;
  /** The card that won it; null when one team alone could draw. */
  card: string | null;
  /** The bye's match in the round. */
  match: string;
}

/** A match of a drawn round, before routes are linked. */
export interface RoundMatch {
  id: string;
  side: 'winners' | 'losers' | 'final';
  slots: [SlotSource, SlotSource];
}

export interface DrawnRound {
  round: number;
  draws: GroupDraw[];
  matches: RoundMatch[];
  /** Pools into a playoff: the playoff's seeds, from which its whole bracket is built (engine/pools.ts). */
  playoff?: string[];
}

/** A team still in the event and the slot source that names it in the next round. */
export interface Entrant {
  team: string;
  source: SlotSource;
}

/** What the next round is made of, before its byes are drawn. */
export interface RoundPlan {
  round: number;
  /** One unbeaten and one one-loss team are left: the round is the final. */
  final: boolean;
  groups: {
    group: RoundGroup;
    entrants: Entrant[];
    /** The teams that draw for the group's bye; empty when the group has an even count or waits (one team). */
    drawing: string[];
  }[];
}

/** What the director brings to a group's draw: the cards by team (rounds of redraws), and the team given the bye. */
export interface GroupDrawInput {
  cards?: DrawRound[];
  bye?: string;
}

const GROUP_NAMES: Record<RoundGroup, string> = { winners: 'winners’ bracket', losers: 'losers’ bracket' };

/** Round 1: every seeded team in the winners' bracket; the draw among all of them when the count is odd. */
export function firstRoundPlan(seeds: readonly string[]): RoundPlan {
  checkTeams([...seeds]);
  const entrants = seeds.map((team, i): Entrant => ({ team, source: { kind: 'team', team, seed: i + 1 } }));
  return { round: 1, final: false, groups: [{ group: 'winners', entrants, drawing: seeds.length % 2 === 1 ? [...seeds] : [] }] };
}

/**
 * The next round of a bracket drawn round by round: the teams of each group and who draws for
 * a bye. Throws an Error saying why there is no next round to draw (a match of the last round
 * still open, or the final already drawn).
 */
export function nextRoundPlan(state: BracketState, views: readonly MatchView[] = matchViews(state)): RoundPlan {
  const bracket = state.bracket;
  if (!bracket.byRound) throw new Error('this bracket was drawn whole at the start; it has no rounds to draw');
  if (bracket.matches.some((m) => m.side === 'final')) throw new Error('the final is drawn; there is no round after it');
  const round = Math.max(...bracket.matches.map((m) => m.round));
  const open = views.filter((v) => !(v.status === 'played' || v.status === 'bye' || v.status === 'forfeit'));
  if (open.length > 0) {
    throw new Error(
      `round ${round} is not over: ${open.map((v) => `${v.id} (${v.status === 'under-review' ? 'under review' : v.status})`).join(', ')} still to be decided`,
    );
  }
  const consumed = new Set(bracket.matches.flatMap((m) => m.slots.flatMap((s) => (s.kind === 'winner' || s.kind === 'loser' ? [`${s.kind}:${s.match}`] : []))));
  const hadBye = new Set(views.filter((v) => v.status === 'bye' && v.winner !== null).map((v) => v.winner!));
  const groups: Record<RoundGroup, Entrant[]> = { winners: [], losers: [] };
  bracket.matches.forEach((match, i) => {
    const view = views[i]!;
    if (!consumed.has(`winner:${match.id}`) && view.winner !== null) {
      groups[match.side === 'winners' ? 'winners' : 'losers'].push({ team: view.winner, source: { kind: 'winner', match: match.id } });
    }
    if (match.side === 'winners' && !consumed.has(`loser:${match.id}`) && view.loser !== null) {
      groups.losers.push({ team: view.loser, source: { kind: 'loser', match: match.id } });
    }
  });
  const next = round + 1;
  if (groups.winners.length === 1 && groups.losers.length === 1) {
    return { round: next, final: true, groups: (['winners', 'losers'] as const).map((group) => ({ group, entrants: groups[group], drawing: [] })) };
  }
  if (groups.winners.length === 0 || (groups.winners.length === 1 && groups.losers.length === 0)) {
    throw new Error(`round ${next}: no match is left to draw (${groups.winners.length} unbeaten, ${groups.losers.length} with one loss)`);
  }
  return {
    round: next,
    final: false,
    groups: (['winners', 'losers'] as const).map((group) => {
      const entrants = groups[group];
      if (entrants.length < 3 || entrants.length % 2 === 0) return { group, entrants, drawing: [] };
      const present = entrants.filter((e) => !state.withdrawn.includes(e.team)).map((e) => e.team);
      const candidates = present.length > 0 ? present : entrants.map((e) => e.team);
      const fresh = candidates.filter((team) => !hadBye.has(team));
      return { group, entrants, drawing: fresh.length > 0 ? fresh : candidates };
    }),
  };
}

/**
 * Decides each odd group's bye from the director's cards, or, for a group given none, from a
 * draw made with `seed` (recorded like a real one). Throws an Error naming the group and what
 * is wrong: a team that is not drawing in that group, an incomplete or tied draw, a bye given
 * to a team that did not draw the highest card, or cards for a group that has no bye to draw.
 */
export function decideByes(plan: RoundPlan, input: Partial<Record<RoundGroup, GroupDrawInput>>, seed: string): Omit<GroupDraw, 'match'>[] {
  for (const group of Object.keys(input) as RoundGroup[]) {
    const planned = plan.groups.find((g) => g.group === group);
    if (!planned) throw new Error(`round ${plan.round}: there is no ${String(group)} group to draw for`);
    if (planned.drawing.length === 0 && (input[group]?.cards?.length || input[group]?.bye)) {
      const count = planned.entrants.length;
      const why = plan.final ? 'it is the final' : count < 2 ? `${count} team waits there` : `it has ${count} teams, an even count`;
      throw new Error(`round ${plan.round}: the ${GROUP_NAMES[group]} has no bye to draw (${why})`);
    }
  }
  const draws: Omit<GroupDraw, 'match'>[] = [];
  for (const { group, drawing } of plan.groups) {
    if (drawing.length === 0) continue;
    const given = input[group] ?? {};
    const label = `round ${plan.round}, ${GROUP_NAMES[group]}`;
    const cards: DrawRound[] =
      given.cards && given.cards.length > 0
        ? given.cards
        : drawing.length > 1
          ? (drawFromSeed(drawing, `${seed}:round-${plan.round}:${group}`) as DrawRound[])
          : [];
    let bye: string;
    let card: string | null = null;
    if (cards.length === 0) {
      bye = drawing[0]!;
    } else {
      try {
        const won = drawHighCard(drawing, cards, `the teams drawing for this bye (${drawing.join(', ')})`);
        bye = won.team;
        card = won.card;
      } catch (error) {
        throw new Error(`${label}: ${(error as Error).message}`);
      }
    }
    if (given.bye !== undefined && given.bye !== bye) {
      throw new Error(
        drawing.includes(given.bye)
          ? `${label}: the bye goes to the highest card, '${bye}'${card ? ` with ${card}` : ''}, not to '${given.bye}'`
          : `${label}: '${given.bye}' is not drawing for this bye (${drawing.join(', ')} are)`,
      );
    }
    draws.push({ group, teams: [...drawing], cards: cards.map((c) => ({ ...c }) as DrawRound), bye, card });
  }
  return draws;
}

/**
 * The matches of a planned round with its byes decided: each group's teams without the bye,
 * first v last, then the bye as a match with one bye slot; or the final.
 */
export function pairRound(plan: RoundPlan, draws: readonly Omit<GroupDraw, 'match'>[]): DrawnRound {
  if (plan.final) {
    const [winners, losers] = [plan.groups.find((g) => g.group === 'winners')!, plan.groups.find((g) => g.group === 'losers')!];
    return { round: plan.round, draws: [], matches: [{ id: 'F', side: 'final', slots: [winners.entrants[0]!.source, losers.entrants[0]!.source] }] };
  }
  const matches: RoundMatch[] = [];
  const recorded: GroupDraw[] = [];
  for (const { group, entrants, drawing } of plan.groups) {
    if (entrants.length < 2) continue;
    const draw = draws.find((d) => d.group === group);
    if (drawing.length > 0 && !draw) throw new Error(`round ${plan.round}: the ${GROUP_NAMES[group]} has ${entrants.length} teams and its bye is not drawn`);
    const playing = entrants.filter((e) => e.team !== draw?.bye);
    const prefix = group === 'winners' ? 'W' : 'L';
    let n = 0;
    for (let i = 0; i < playing.length / 2; i++) {
      matches.push({ id: `${prefix}${plan.round}-${++n}`, side: group, slots: [playing[i]!.source, playing[playing.length - 1 - i]!.source] });
    }
    if (draw) {
      const sitting = entrants.find((e) => e.team === draw.bye)!;
      const id = `${prefix}${plan.round}-${++n}`;
      matches.push({ id, side: group, slots: [sitting.source, { kind: 'bye' }] });
      recorded.push({ ...draw, match: id });
    }
  }
  return { round: plan.round, draws: recorded, matches };
}

/** Round 1 of a bracket drawn round by round, as a bracket; `bye` the team that drew the highest card (odd counts). */
export function firstRoundBracket(seeds: readonly string[], bye: string | null): Bracket {
  const plan = firstRoundPlan(seeds);
  const needed = plan.groups[0]!.drawing.length > 0;
  if (needed !== (bye !== null))
    throw new Error(needed ? `${seeds.length} teams, an odd count: one drawn bye is needed` : `${seeds.length} teams, an even count: there is no bye`);
  if (bye !== null && !seeds.includes(bye)) throw new Error(`bye: team '${bye}' is not in the seeding`);
  const draws = bye === null ? [] : [{ group: 'winners' as const, teams: [...seeds], cards: [], bye, card: null }];
  const round = pairRound(plan, draws);
  const base: Bracket = { format: 'double', teams: [...seeds], reset: false, thirdPlace: false, matches: [], byRound: true };
  return appendRound(base, round);
}

/**
 * The bracket with a drawn round added (a new object; the old one is left as it was). Throws
 * when a match id repeats or a slot names a match that does not exist or is already routed.
 */
export function appendRound(bracket: Bracket, round: DrawnRound): Bracket {
  if (!bracket.byRound) throw new Error('rounds are added only to a bracket drawn round by round');
  const last = Math.max(0, ...bracket.matches.map((m) => m.round));
  if (round.round !== last + 1) throw new Error(`round ${round.round} cannot follow round ${last}`);
  const ids = new Set(bracket.matches.map((m) => m.id));
  const added: BracketMatch[] = round.matches.map((m) => {
    if (ids.has(m.id)) throw new Error(`round ${round.round}: match ${m.id} is drawn twice`);
    ids.add(m.id);
    return { id: m.id, side: m.side, round: round.round, slots: [m.slots[0], m.slots[1]], winnerTo: null, loserTo: null };
  });
  const matches = [...bracket.matches.map((m) => ({ ...m, winnerTo: null, loserTo: null })), ...added];
  linkRoutes(matches);
  return { ...bracket, matches };
}
