/**
 * When a blind bid is made. Where the rules say a blind bid is declared before the cards are
 * dealt (Pitt Boss: "The team must declare this bid before the cards are dealt"), a team far
 * enough behind declares its two blind bids with the deal, and no blind bid is open once the
 * cards are out: not at a seat's turn to bid, and not after the opponents have bid. Elsewhere a
 * blind bid is made at the seat's turn, as any bid.
 *
 * A record on paper holds the four bids without saying when each was said, so this is asked of
 * a hand played live (the deal and the bids, one by one), never of a record's bids.
 */
import { type Bid, EVENT_RULES, type ScoresBefore, allowedBids, teamBidProblem } from './bid.ts';
import { SEATS, type Seat, type Team, TEAMS, otherTeam, seatsOf, teamOf } from './cards.ts';
import type { RuleOptions } from './presets.ts';

type Options = RuleOptions;

/** Whether blind bids are declared before the cards are dealt. */
export function blindBeforeDeal(options: Pick<Options, 'blindBid' | 'blindBidDeclared'>): boolean {
  return options.blindBid !== null && options.blindBidDeclared === 'before-deal';
}

/** The teams that may declare a blind bid before the next deal, with the least their two bids may add up to. */
export function blindDeclarable(options: Options, before: ScoresBefore): { team: Team; minimum: number }[] {
  if (!blindBeforeDeal(options)) return [];
  const blind = options.blindBid!;
  return TEAMS.filter((team) => {
    const down = before[otherTeam(team)] - before[team];
    return blind.strict ? down > blind.deficit : down >= blind.deficit;
  }).map((team) => ({ team, minimum: Math.max(blind.minimumTeam, options.teamMinimum) }));
}

/**
 * What is wrong with blind bids declared with a deal (`{ N: 3, S: 3 }`, each seat's tricks), in
 * this event's words; null when they may be declared. Only a team's two partners together
 * declare, only where the rules have blind bids said before the deal, and only as far behind as
 * the rules ask.
 */
export function blindDeclarationProblem(options: Options, declared: Partial<Record<Seat, number>>, before: ScoresBefore): string | null {
  const seats = SEATS.filter((s) => declared[s] !== undefined);
  if (seats.length === 0) return null;
  if (options.blindBid === null) return 'there are no blind bids under this event’s rules';
  if (!blindBeforeDeal(options)) return 'under this event’s rules a blind bid is made at the bidder’s turn, not with the deal';
  const team = teamOf(seats[0]!);
  const [a, b] = seatsOf(team);
  if (seats.some((s) => teamOf(s) !== team)) return 'only one team declares a blind bid with the deal: both partners of that team';
  if (declared[a] === undefined || declared[b] === undefined) return `a blind bid needs both partners to bid blind: ${a} and ${b}`;
  for (const seat of [a, b]) {
    const n = declared[seat]!;
    if (!Number.isInteger(n) || n < 0 || n > 13) return `${seat}’s blind bid must be a whole number of tricks from 0 to 13, not ${JSON.stringify(n)}`;
  }
  // The other team's seats are placeholders here: only the declaring team is asked about.
  const bids: Record<Seat, Bid> = {
    N: { kind: 'number', tricks: 13 },
    E: { kind: 'number', tricks: 13 },
    S: { kind: 'number', tricks: 13 },
    W: { kind: 'number', tricks: 13 },
  };
  bids[a] = { kind: 'blind', tricks: declared[a]! };
  bids[b] = { kind: 'blind', tricks: declared[b]! };
  return teamBidProblem(options, team, bids, before, EVENT_RULES);
}

/**
 * The bids open to `seat` at its turn, once the cards are dealt: every bid the rules allow,
 * less blind bids where those are declared before the deal.
 */
export function bidsAtTurn(options: Options, seat: Seat, bidsSoFar: Partial<Record<Seat, Bid>>, before: ScoresBefore): Bid[] {
  const open = allowedBids(options, seat, bidsSoFar, before);
  return blindBeforeDeal(options) ? open.filter((b) => b.kind !== 'blind') : open;
}

/** Why a blind bid at a seat's turn is refused where blind bids are declared before the deal; null elsewhere. */
export function blindAtTurnProblem(options: Options, bid: Bid): string | null {
  if (bid.kind !== 'blind' || !blindBeforeDeal(options)) return null;
  return 'under this event’s rules a blind bid is declared before the cards are dealt, with the deal; once they are dealt it may not be bid';
}
