/**
 * Seeding: the order teams (or players) enter a bracket or a table plan, and who gets a bye.
 * A seeded order is a plain list, seed 1 first. Random orders come from a recorded seed so
 * the draw can be replayed and checked; the blp-2024 bye comes from a recorded high-card draw.
 */
import { naturalRank, parseCard } from './cards.ts';
import { type Seed, createRandom, shuffleInPlace } from './random.ts';

/** The most teams a bracket holds (asher-theatre's 64). */
export const MAX_TEAMS = 64;

/** A manual seeding: the list as given, seed 1 first, after checking the ids (teams or players). */
export function manualSeeding(teams: readonly string[]): string[] {
  checkIds(teams, 'seeding', 2, Infinity);
  return [...teams];
}

/** A random seeding from a recorded seed: the same list and seed always give the same order. */
export function randomSeeding(teams: readonly string[], seed: Seed): string[] {
  checkIds(teams, 'seeding', 2, Infinity);
  return shuffleInPlace([...teams], createRandom(seed));
}

/** How many byes a bracket of `teamCount` teams needs to fill its first round (next power of two). */
export function byeCount(teamCount: number): number {
  if (!Number.isInteger(teamCount) || teamCount < 2 || teamCount > MAX_TEAMS) {
    throw new Error(`a bracket holds 2 to ${MAX_TEAMS} teams, not ${teamCount}`);
  }
  let size = 1;
  while (size < teamCount) size *= 2;
  return size - teamCount;
}

/** The teams that receive first-round byes when the top seeds get them. */
export function byeRecipients(seeded: readonly string[]): string[] {
  return seeded.slice(0, byeCount(seeded.length));
}

/**
 * The seeded order with `byeTeams` moved to the top (in the order given) so that the bracket,
 * which gives byes to the top seeds, gives them theirs; everyone else keeps their relative order.
 */
export function withByesTo(seeded: readonly string[], byeTeams: readonly string[]): string[] {
  checkIds(seeded, 'seeding');
  const byes = byeCount(seeded.length);
  if (byeTeams.length > byes) {
    throw new Error(`${seeded.length} teams leave ${byes} bye${byes === 1 ? '' : 's'}, not ${byeTeams.length}`);
  }
  for (const team of byeTeams) {
    if (!seeded.includes(team)) throw new Error(`bye: team '${team}' is not in the seeding`);
  }
  if (new Set(byeTeams).size !== byeTeams.length) throw new Error('bye: a team is named twice');
  return [...byeTeams, ...seeded.filter((team) => !byeTeams.includes(team))];
}

/** One round of a high-card draw: each drawing team's card, by name ("AS", "10H"). */
export type DrawRound = Readonly<Record<string, string>>;

export interface ByeDraw {
  /** The team with the highest card: it receives the bye. */
  team: string;
  /** The card that won the draw, as written in the record. */
  card: string;
  /** How many draw rounds it took (1 when there was no tie for the highest card). */
  rounds: number;
}

/**
 * The blp-2024 bye: among the teams alive in a round with an odd count, the highest card drawn
 * (A high, suits equal) gets the bye; teams tied for the highest redraw, one entry of `rounds`
 * per redraw.
 */
export function drawBye(alive: readonly string[], rounds: readonly DrawRound[]): ByeDraw {
  checkIds(alive, 'bye draw', 1, Infinity);
  if (alive.length % 2 === 0) {
    throw new Error(`bye draw: ${alive.length} teams are alive, an even count, so there is no bye to draw`);
  }
  return drawHighCard(alive, rounds, 'the teams alive in this round');
}

/**
 * A high-card draw among `drawing` (any count): the highest card wins; tied teams redraw. Used
 * for the bye of a round drawn group by group, where only the teams of an odd group that have
 * had no bye yet draw, and their count may be even.
 */
export function drawHighCard(drawing: readonly string[], rounds: readonly DrawRound[], who = 'the teams drawing'): ByeDraw {
  checkIds(drawing, 'bye draw', 1, Infinity);
  const alive = [...drawing];
  if (rounds.length === 0) {
    throw new Error(`bye draw: no cards recorded; each of the ${alive.length} teams draws one ("highest card drawn will receive a BYE")`);
  }
  let left: string[] = [...alive];
  for (let r = 0; r < rounds.length; r++) {
    const label = r === 0 ? 'bye draw' : `bye draw, redraw ${r}`;
    const round = rounds[r]!;
    for (const team of Object.keys(round)) {
      if (!left.includes(team)) {
        throw new Error(
          alive.includes(team)
            ? `${label}: team '${team}' was not tied for the highest card, so it does not redraw`
            : `${label}: team '${team}' is not one of ${who}`,
        );
      }
    }
    const missing = left.filter((team) => !(team in round));
    if (missing.length > 0) {
      throw new Error(`${label}: no card recorded for ${missing.map((t) => `'${t}'`).join(', ')}; the draw is incomplete`);
    }
    const seen = new Map<number, string>();
    let best = 0;
    for (const team of left) {
      const name = round[team]!;
      const card = parseCard(name);
      if (card === null || naturalRank(card) === 0) {
        throw new Error(`${label}: team '${team}' drew '${name}', which is not a card of the draw (a natural card such as AS or 10H)`);
      }
      const other = seen.get(card);
      // More teams than a deck holds (53 to 64) draw from two decks, where a card comes twice.
      if (other !== undefined && left.length <= 52)
        throw new Error(`${label}: teams '${other}' and '${team}' both drew ${name}; one deck holds one of each card`);
      seen.set(card, team);
      best = Math.max(best, naturalRank(card));
    }
    const top = left.filter((team) => naturalRank(parseCard(round[team]!)!) === best);
    if (top.length === 1) {
      if (r < rounds.length - 1) {
        throw new Error(`bye draw, redraw ${r + 1}: not needed, '${top[0]}' already won the draw with ${round[top[0]!]}`);
      }
      return { team: top[0]!, card: round[top[0]!]!, rounds: r + 1 };
    }
    left = top;
  }
  throw new Error(`bye draw: ${left.map((t) => `'${t}'`).join(', ')} are still tied for the highest card; they redraw (record another round)`);
}

function checkIds(ids: readonly string[], where: string, minimum = 2, maximum = MAX_TEAMS): void {
  if (ids.length < minimum) throw new Error(`${where}: ${ids.length} listed; it takes at least ${minimum}`);
  if (ids.length > maximum) throw new Error(`${where}: ${ids.length} teams; it takes at most ${maximum}`);
  const seen = new Set<string>();
  for (const id of ids) {
    if (typeof id !== 'string' || id.trim() === '') throw new Error(`${where}: a team id is empty`);
    if (seen.has(id)) throw new Error(`${where}: team '${id}' is listed twice`);
    seen.add(id);
  }
}
