/**
 * Scoring one hand, exactly as docs/spec/rules.md "Scoring a hand" reads the rulebooks. Everything a
 * preset does differently is an option; nothing here asks which preset is playing.
 */
import { type Seat, type Team, TEAMS, otherTeam, seatsOf, teamOf } from './cards.ts';
import { type Bids, isNil, teamBidOf } from './bid.ts';
import type { BigBidOptions, RuleOptions } from './presets.ts';

/** What a team carries from hand to hand. */
export interface TeamState {
  score: number;
  /** Bags counted since the last bag penalty (restarts at 0 with each penalty). */
  bags: number;
  /** Contracts not made in this game. */
  sets: number;
  /** Tricks still owed from an upheld renege (asher): they come out of the team's next hand. */
  renegeDebt: number;
}

/** A judge's ruling on a renege claim against `seat`; the claim was made by the other team. */
export interface RenegeRuling {
  seat: Seat;
  upheld: boolean;
}

/** A hand as scoring needs it. */
export interface HandToScore {
  bids: Bids;
  /** Tricks each seat took as played; null for a hand that is not played (asher 6-4). */
  tricks: Readonly<Record<Seat, number>> | null;
  /** The team that won the first 7 tricks, if one did. */
  firstSeven: Team | null;
  reneges: readonly RenegeRuling[];
}

/** How one team's hand was scored. */
export interface TeamHandScore {
  /** The change to the team's score: contract, nils, bonuses, renege points and bag penalties. */
  points: number;
  /** Tricks counted for the contract, after renege penalties and any debt paid. */
  counted: number;
  /** The team bid a contract and did not make it (a double nil's contract 0 is never set). */
  set: boolean;
  /** Overtricks this hand (counted once, undoubled), whether or not they are bags. */
  overtricks: number;
  /** Bag penalties paid this hand. */
  bagPenalties: number;
}

export interface HandScore {
  /** The hand was not played (asher 6-4): the bids were scored as made. */
  notPlayed: boolean;
  teams: Record<Team, TeamHandScore>;
  after: Record<Team, TeamState>;
}

/** Whether the bids are an unplayed 6-4: one team bid exactly 6, the other exactly 4, with no nil or blind. */
export function isSixFour(options: Pick<RuleOptions, 'sixFour'>, bids: Bids): boolean {
  if (!options.sixFour) return false;
  if (Object.values(bids).some((bid) => bid.kind !== 'number')) return false;
  const ns = teamBidOf(bids, 'NS').contract;
  const ew = teamBidOf(bids, 'EW').contract;
  return (ns === 6 && ew === 4) || (ns === 4 && ew === 6);
}

/** The "10 for 200" rule a team bid of `contract` falls under, or null: none in these rules, too low a bid, or a double nil. */
export function bigBidOf(options: Pick<RuleOptions, 'bigBid'>, contract: number, doubleNil = false): BigBidOptions | null {
  return options.bigBid !== null && !doubleNil && contract >= options.bigBid.from ? options.bigBid : null;
}

/** What a made team bid of `contract` scores before overtricks and a blind bid's doubling. */
export function madeContractPoints(options: Pick<RuleOptions, 'bigBid'>, contract: number, doubleNil = false): number {
  const big = bigBidOf(options, contract, doubleNil);
  return big ? Math.max(big.madeFloor, 10 * contract) + big.madeBonus : 10 * contract;
}

/** What a set team bid of `contract` costs (a negative number); a blind bid set costs the same. */
export function setContractPoints(options: Pick<RuleOptions, 'bigBid'>, contract: number): number {
  const big = bigBidOf(options, contract);
  return big && big.setPoints !== null ? -big.setPoints : -10 * contract;
}

/** Scores one hand from the teams' state before it; `hand` is assumed already checked (see game.ts). */
export function scoreHand(options: RuleOptions, before: Readonly<Record<Team, TeamState>>, hand: HandToScore): HandScore {
  if (hand.tricks === null || isSixFour(options, hand.bids)) return scoreSixFour(before, hand.bids);
  const tricks = hand.tricks;

  // Tricks that count for the contract: those of the seats that did not bid nil. A nil bidder's
  // tricks are judged on the nil alone and never help the partner's contract.
  const counted: Record<Team, number> = { NS: 0, EW: 0 };
  const nilTricks: Record<Team, number> = { NS: 0, EW: 0 };
  for (const team of TEAMS) {
    for (const seat of seatsOf(team)) {
      if (isNil(hand.bids[seat])) nilTricks[team] += tricks[seat];
      else counted[team] += tricks[seat];
    }
  }

  const debt: Record<Team, number> = { NS: before.NS.renegeDebt, EW: before.EW.renegeDebt };
  const renegePoints: Record<Team, number> = { NS: 0, EW: 0 };
  applyReneges(options, hand.reneges, counted, debt, renegePoints);

  const teams = {} as Record<Team, TeamHandScore>;
  const after = {} as Record<Team, TeamState>;
  for (const team of TEAMS) {
    const bid = teamBidOf(hand.bids, team);
    const nilOvertricks = options.nilTricks === 'overtricks' ? nilTricks[team] : 0;
    const made = bid.doubleNil || counted[team] >= bid.contract;
    let points = 0;
    let overtricks = nilOvertricks;
    if (made) {
      overtricks += counted[team] - bid.contract;
      points = madeContractPoints(options, bid.contract, bid.doubleNil) + (options.overtrickPoints ? overtricks : 0);
      if (bid.blind) points *= 2;
    } else {
      // A blind bid that fails is an ordinary set: the same loss the bid would cost if not blind.
      points = setContractPoints(options, bid.contract);
      if (options.overtrickPoints) points += nilOvertricks;
    }

    for (const seat of bid.nilSeats) {
      const value = hand.bids[seat]!.kind === 'blind-nil' ? options.blindNil! : options.nil!;
      points += tricks[seat] === 0 ? value : -value;
    }
    if (options.firstSeven !== null && hand.firstSeven === team) points += options.firstSeven;
    points += renegePoints[team];

    let bags = before[team].bags;
    let bagPenalties = 0;
    if (options.bagsCounted) {
      bags += overtricks;
      if (options.bagLimit !== null) {
        // Every limit-th bag costs the penalty and the count restarts at 0, so the surplus carries.
        while (bags >= options.bagLimit) {
          bags -= options.bagLimit;
          bagPenalties++;
        }
      }
    }
    points -= bagPenalties * options.bagPenalty;

    teams[team] = { points, counted: counted[team], set: !made, overtricks, bagPenalties };
    after[team] = {
      score: before[team].score + points,
      bags,
      sets: before[team].sets + (made ? 0 : 1),
      renegeDebt: debt[team],
    };
  }
  return { notPlayed: false, teams, after };
}

/**
 * Upheld (and, in pitt-boss, denied) renege claims. The renege trick pool rule: tricks given up
 * come out of the paying team's counted tricks (those of its non-nil bidders), never out of a
 * nil bidder's own tricks, which were already judged for the nil.
 */
function applyReneges(
  options: RuleOptions,
  reneges: readonly RenegeRuling[],
  counted: Record<Team, number>,
  debt: Record<Team, number>,
  renegePoints: Record<Team, number>,
): void {
  const n = options.renegeTricks;
  // A debt from an earlier hand is paid first, out of this hand's tricks; it is not credited
  // to the opponents a second time.
  for (const team of TEAMS) {
    const paid = Math.min(debt[team], counted[team]);
    counted[team] -= paid;
    debt[team] -= paid;
  }
  const move = (from: Team, to: Team) => {
    const moved = Math.min(n, counted[from]);
    counted[from] -= moved;
    counted[to] += moved;
  };
  for (const ruling of reneges) {
    const offender = teamOf(ruling.seat);
    const claimant = otherTeam(offender);
    const penalty = options.renegePenalty;
    switch (penalty) {
      case 'transfer':
        if (ruling.upheld) move(offender, claimant);
        break;
      case 'pitt-boss':
        // The team that loses the renege challenge pays.
        if (ruling.upheld) move(offender, claimant);
        else move(claimant, offender);
        break;
      case 'unc':
        // The tricks are lost, not given: the claimants get flat points instead.
        if (ruling.upheld) counted[offender] = Math.max(0, counted[offender] - n);
        break;
      case 'asher': {
        if (!ruling.upheld) break;
        const given = Math.min(n, counted[offender]);
        counted[offender] -= given;
        debt[offender] += n - given;
        counted[claimant] += n;
        break;
      }
      default: {
        const _exhaustive: never = penalty;
        throw new Error(`unknown renege penalty ${String(_exhaustive)}`);
      }
    }
    if (ruling.upheld) renegePoints[claimant] += options.renegePoints;
  }
}

/** asher 6-4: the hand is not played; both bids score as made, with no bags. */
function scoreSixFour(before: Readonly<Record<Team, TeamState>>, bids: Bids): HandScore {
  const teams = {} as Record<Team, TeamHandScore>;
  const after = {} as Record<Team, TeamState>;
  for (const team of TEAMS) {
    const contract = teamBidOf(bids, team).contract;
    const points = 10 * contract;
    teams[team] = { points, counted: contract, set: false, overtricks: 0, bagPenalties: 0 };
    after[team] = { ...before[team], score: before[team].score + points };
  }
  return { notPlayed: true, teams, after };
}
