/**
 * Rules presets. A preset is data: a named set of options. A record or a tournament may
 * override any option (`{ "preset": "unc-300", "target": 250 }`); nothing in the engine asks
 * which preset it is playing, only what the options say.
 */

export type BiddingOrder = 'clockwise' | 'non-dealing-team-first';
export type NilTricks = 'overtricks' | 'nothing';
export type RenegePenalty = 'transfer' | 'unc' | 'asher' | 'pitt-boss';
export type FirstDealer = 'high-card' | 'coin-toss' | 'random';
export type AfterMisdeal = 'same-dealer' | 'next-dealer' | 'next-dealer-after-flip';
/** When a blind bid is made: at the bidder's turn, or declared before the cards are dealt. */
export type BlindBidDeclared = 'in-turn' | 'before-deal';

export interface BigBidOptions {
  /** Team bids at or above this are "10 for 200" bids. */
  from: number;
  /** Made: the contract is worth at least this many points (before overtricks). */
  madeFloor: number;
  /** Made: points added on top of 10 × bid. */
  madeBonus: number;
  /** Set: the team loses this many points; null means the ordinary −10 × bid. */
  setPoints: number | null;
}

export interface BlindBidOptions {
  /** How far behind (opponents' score minus the team's) the team must be before the hand. */
  deficit: number;
  /** True when the team must be strictly more than `deficit` behind. */
  strict: boolean;
  /** The lowest team total a blind bid may have. */
  minimumTeam: number;
}

export interface RuleOptions {
  /** Points that win the game; null when the game is a fixed number of hands. */
  target: number | null;
  /** A game of exactly this many hands (ties play on); null for a game to the target. */
  hands: number | null;
  /** Cards taken out of the 52 (names as in records). */
  removed: string[];
  /** Whether the two jokers are in the deck, as the two highest trumps. */
  jokers: boolean;
  /** Non-natural trumps ranked just below the jokers and above A♠, high to low (e.g. 2D, 2S). */
  promoted: string[];
  /** Who bids first. */
  biddingOrder: BiddingOrder;
  /** The least a team may bid (the partner's bid when one partner bids nil). */
  teamMinimum: number;
  /** The most a team may bid. */
  teamMaximum: number;
  /** Points for a nil made / lost; null when nil may not be bid. */
  nil: number | null;
  /** Points for a blind nil made / lost; null when blind nil may not be bid. */
  blindNil: number | null;
  /** How far behind a team must be (at least) to bid blind nil. */
  blindNilDeficit: number;
  /** Blind team bids (both partners bid blind), or null when not allowed. */
  blindBid: BlindBidOptions | null;
  /** When a blind bid is made: at the bidder's turn, or declared by the team before the cards are dealt. */
  blindBidDeclared: BlindBidDeclared;
  /** What a nil bidder's tricks are worth to the team: overtricks (a point and a bag), or nothing. */
  nilTricks: NilTricks;
  /** Whether overtricks score a point each. */
  overtrickPoints: boolean;
  /** Whether overtricks are counted as bags. */
  bagsCounted: boolean;
  /** Every this-many bags costs `bagPenalty` and the count restarts; null for no penalty. */
  bagLimit: number | null;
  /** Points lost each time the bag limit is reached. */
  bagPenalty: number;
  /** The "10 for 200" rule, or null. */
  bigBid: BigBidOptions | null;
  /** Bonus for a team that wins the first 7 tricks of a hand; null for none. */
  firstSeven: number | null;
  /** How an upheld renege claim is paid. */
  renegePenalty: RenegePenalty;
  /** Tricks a renege costs. */
  renegeTricks: number;
  /** Flat points the other team gets for a renege (unc); 0 for none. */
  renegePoints: number;
  /** Bids of exactly 6 and 4 (no nil or blind) are not played: +60 / +40, no bags. */
  sixFour: boolean;
  /** A team that takes all 13 tricks wins the game at once. */
  boston: boolean;
  /** A team's n-th set in a game loses it; null for no set-out. */
  setOut: number | null;
  /** How the first dealer is chosen. */
  firstDealer: FirstDealer;
  /** Who deals after a misdeal. */
  afterMisdeal: AfterMisdeal;
  /** The reasons a misdeal may be called for. */
  misdealReasons: string[];
  /** The dealer rotation carries on across the games of a match. */
  dealerCarriesAcrossGames: boolean;
}

export type PresetId = 'blp-r1' | 'blp-r2' | 'blp-final' | 'unc-300' | 'unc-500' | 'pitt-boss' | 'asher' | 'tournament-spades' | 'standard';

export const PRESET_IDS: readonly PresetId[] = ['blp-r1', 'blp-r2', 'blp-final', 'unc-300', 'unc-500', 'pitt-boss', 'asher', 'tournament-spades', 'standard'];

/** Defaults every preset starts from: plain partnership Spades. */
const BASE: RuleOptions = {
  target: 500,
  hands: null,
  removed: [],
  jokers: false,
  promoted: [],
  biddingOrder: 'clockwise',
  teamMinimum: 4,
  teamMaximum: 13,
  nil: null,
  blindNil: null,
  blindNilDeficit: 100,
  blindBid: null,
  blindBidDeclared: 'in-turn',
  nilTricks: 'overtricks',
  overtrickPoints: true,
  bagsCounted: true,
  bagLimit: 10,
  bagPenalty: 100,
  bigBid: null,
  firstSeven: null,
  renegePenalty: 'transfer',
  renegeTricks: 3,
  renegePoints: 0,
  sixFour: false,
  boston: false,
  setOut: null,
  firstDealer: 'high-card',
  afterMisdeal: 'same-dealer',
  misdealReasons: ['wrong-card-count'],
  dealerCarriesAcrossGames: false,
};

/**
 * A standard game, for an event whose rules follow no rulebook: 52 cards, spades trump, 10
 * points a trick bid, 1 an overtrick and a bag, 10 bags −100, nil ±100, games to 500.
 */
export const STANDARD_RULES: Readonly<RuleOptions> = { ...BASE, nil: 100 };

const BLP: Partial<RuleOptions> = {
  biddingOrder: 'non-dealing-team-first',
  setOut: 3,
  misdealReasons: ['wrong-card-count'],
};

const UNC: Partial<RuleOptions> = {
  removed: ['2H', '2D'],
  jokers: true,
  promoted: ['2S'],
  biddingOrder: 'non-dealing-team-first',
  nilTricks: 'nothing',
  renegePenalty: 'unc',
  renegePoints: 30,
  misdealReasons: ['no-face-cards', 'no-trumps', 'wrong-card-count', 'leaked-card-details'],
};

const PITT_ASHER_DECK: Partial<RuleOptions> = { removed: ['2H', '2D'], jokers: true };

export const PRESETS: Readonly<Record<PresetId, RuleOptions>> = {
  'blp-r1': { ...BASE, ...BLP, target: 200 },
  'blp-r2': { ...BASE, ...BLP, target: 350, removed: ['2H', '2C'], jokers: true },
  'blp-final': { ...BASE, ...BLP, target: 500, removed: ['2H', '2C'], jokers: true, promoted: ['2D', '2S'] },
  'unc-300': {
    ...BASE,
    ...UNC,
    target: 300,
    nil: 60,
    blindNil: 120,
    bagLimit: 6,
    bagPenalty: 60,
    bigBid: { from: 10, madeFloor: 120, madeBonus: 0, setPoints: null },
  },
  'unc-500': {
    ...BASE,
    ...UNC,
    target: 500,
    nil: 100,
    blindNil: 200,
    bagLimit: 10,
    bagPenalty: 100,
    bigBid: { from: 10, madeFloor: 200, madeBonus: 0, setPoints: null },
  },
  'pitt-boss': {
    ...BASE,
    ...PITT_ASHER_DECK,
    target: 350,
    nil: 100,
    blindBid: { deficit: 100, strict: false, minimumTeam: 6 },
    // "The team must declare this bid before the cards are dealt."
    blindBidDeclared: 'before-deal',
    bigBid: { from: 10, madeFloor: 200, madeBonus: 0, setPoints: 100 },
    firstSeven: 100,
    renegePenalty: 'pitt-boss',
    // "You may not flip a card during the deal ... This will result in a misdeal and your turn
    // to deal will be forfeited"; any other misdeal is "voided and re-dealt". A misdeal is "Any
    // deal resulting in the incorrect number of cards for each player or dealer not receiving
    // the last card".
    afterMisdeal: 'next-dealer-after-flip',
    misdealReasons: ['card-flipped', 'wrong-card-count', 'uneven-deal'],
  },
  asher: {
    ...BASE,
    ...PITT_ASHER_DECK,
    target: 350,
    blindBid: { deficit: 100, strict: true, minimumTeam: 4 },
    overtrickPoints: false,
    bagsCounted: false,
    bagLimit: null,
    bigBid: { from: 10, madeFloor: 0, madeBonus: 100, setPoints: null },
    renegePenalty: 'asher',
    sixFour: true,
    boston: true,
    setOut: 2,
    firstDealer: 'coin-toss',
    afterMisdeal: 'next-dealer',
    misdealReasons: ['no-cut-offered', 'card-exposed', 'uneven-deal'],
    dealerCarriesAcrossGames: true,
  },
  'tournament-spades': {
    ...BASE,
    target: null,
    hands: 4,
    teamMinimum: 0,
    nil: 100,
    bagLimit: null,
    firstDealer: 'random',
  },
  standard: STANDARD_RULES,
};

/** Whether a string is a preset id. */
export function isPresetId(value: unknown): value is PresetId {
  return typeof value === 'string' && (PRESET_IDS as readonly string[]).includes(value);
}
