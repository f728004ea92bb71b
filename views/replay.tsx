/**
 * A hand replayed from the ledger, one step at a time: the deal and the bids, then each trick
 * as played with the hands shrinking, the winner, the running counts and whatever rule was
 * broken there, then the hand's score. Every step lists the ledger entries it was read from
 * (position and hash), so a disputed hand can be settled from the record rather than anyone's
 * word. Each step is its own address (`?step=N`), so the page works without scripts;
 * /static/replay.js only adds the ← and → keys and the buttons that copy a hash.
 */
import { SEAT_NAMES, type Seat, type Team, SEATS, TEAMS, naturalRank, naturalSuit, parseCard, seatsOf, teamOf } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { scoreRecord } from '../engine/record.ts';
import { resolveRules } from '../engine/rules.ts';
import { type Violation, replayPlays } from '../engine/trick.ts';
import type { RecordedEvent } from '../events/store/append.ts';
import { gameRecord } from '../events/game-projection.ts';
import type { GameModel, HandRow, RecordHand } from '../events/read-models.ts';
import type { BidValue } from '../events/domain-events.ts';
import { CardFace } from './card-face.tsx';
import { Layout } from './layout.tsx';
import { cardText } from '../engine/card-names.ts';
import { replayLink } from '../events/addresses.ts';


/** A ledger entry a step was read from. */
export interface LedgerRef {
  position: number;
  hash: string;
  type: string;
  /** What the entry says, in words. */
  says: string;
}

export interface ReplayCard {
  seat: Seat;
  card: string;
  ref: LedgerRef;
  renege: boolean;
  illegalLead: boolean;
}

export interface ReplayTrick {
  number: number;
  leader: Seat;
  cards: ReplayCard[];
  /** Null while the trick is still being played. */
  winner: Seat | null;
  /** Tricks each seat has taken once this trick is over. */
  taken: Record<Seat, number>;
}

export interface ReplayClaim {
  seat: Seat;
  trick: number | null;
  ref: LedgerRef;
  ruling: { upheld: boolean; judge: string; note: string; ref: LedgerRef; withdrawn?: { judge: string; reason: string; ref: LedgerRef } } | null;
  /** What the ruling changed in the hand's points; null until the hand is scored with it. */
  effect: Record<Team, number> | null;
}

export interface HandReplay {
  gameId: string;
  hand: number;
  dealer: Seat;
  players: Partial<Record<Seat, string>>;
  teamNames: Record<Team, string>;
  /** The cards as dealt; `inferred` when the deal was not recorded and holdings come from the plays. */
  deal: Record<Seat, string[]> | null;
  inferred: boolean;
  dealRef: LedgerRef;
  bids: { seat: Seat; bid: BidValue; ref: LedgerRef }[];
  misdeal: { reason: string; ref: LedgerRef } | null;
  tricks: ReplayTrick[];
  /** Tricks counted at the end of a hand whose cards were not recorded. */
  counted: { tricks: Record<Seat, number>; ref: LedgerRef } | null;
  claims: ReplayClaim[];
  /** Entries taken back at the table, each with the entry that undid it. */
  takenBack: { entry: LedgerRef; undo: LedgerRef }[];
  /** What the engine could not replay (a ledger written by something else), if anything. */
  problem: string | null;
  /** The teams' scores before the hand. */
  before: Record<Team, number>;
  /** The hand's score; null while it is being played. */
  row: HandRow | null;
  /** What each ruling in the hand undid beyond it (by the ruling's ledger position): "It reopened Round 1 (match 6)…". */
  consequences?: Record<number, string>;
}

/** How many steps a replay has: the deal and bids, each trick (or the count of tricks). */
export function stepCount(replay: HandReplay): number {
  return 1 + replay.tricks.length + (replay.counted ? 1 : 0);
}

type GameEventPayload = { gameId?: string; hand?: number; claimId?: string } & Record<string, unknown>;

/**
 * Builds a hand's replay from the game's events as stored (in position order) and the game's
 * read model (for the deal, the rules and the scores). Null when the game has no such hand.
 */
export function handReplay(game: GameModel, hand: number, events: readonly RecordedEvent[], teamNames: Readonly<Record<string, string>> = {}): HandReplay | null {
  const all = events.filter((e) => (e.payload as GameEventPayload).gameId === game.gameId);
  const ofHand = (e: RecordedEvent) => (e.payload as GameEventPayload).hand === hand;
  const ref = (e: RecordedEvent, says: string): LedgerRef => ({ position: e.position, hash: e.hash, type: e.type, says });
  // An entry taken back stays in the ledger; the replay shows the hand without it, and lists
  // both the entry and its undoing at the end, so no stored event of the hand goes unaccounted.
  const undos = all.filter((e) => e.type === 'EntryUndone' && ofHand(e));
  const undone = new Set(undos.map((e) => (e.payload as { undone: number }).undone));
  const ours = all.filter((e) => !undone.has(e.position) && e.type !== 'EntryUndone');
  const takenBack = undos.flatMap((u) => {
    const entry = all.find((e) => e.position === (u.payload as { undone: number }).undone);
    return entry ? [{ entry: ref(entry, `${entry.type} at position ${entry.position}, taken back`), undo: ref(u, `the entry at position ${entry.position} taken back`) }] : [];
  });

  const dealt = ours.find((e) => e.type === 'HandDealt' && ofHand(e));
  if (!dealt) return null;
  const dealer = (dealt.payload as { dealer: Seat }).dealer;
  const recordHand: RecordHand | undefined =
    game.hands[hand - 1] ?? (game.current?.number === hand ? { deal: game.current.deal, plays: game.current.plays } : undefined);

  const bids = ours
    .filter((e) => e.type === 'BidMade' && ofHand(e))
    .map((e) => {
      const p = e.payload as { seat: Seat; bid: BidValue };
      return { seat: p.seat, bid: p.bid, ref: ref(e, `${SEAT_NAMES[p.seat]} bid ${p.bid}`) };
    });
  const misdealEvent = ours.find((e) => e.type === 'MisdealCalled' && ofHand(e));
  const misdeal = misdealEvent
    ? { reason: String((misdealEvent.payload as { reason: string }).reason), ref: ref(misdealEvent, `misdeal: ${(misdealEvent.payload as { reason: string }).reason}`) }
    : null;
  const countedEvent = ours.find((e) => e.type === 'TricksRecorded' && ofHand(e));
  const countedTricks = countedEvent ? (countedEvent.payload as { tricks: Record<Seat, number> }).tricks : null;
  const counted =
    countedEvent && countedTricks
      ? { tricks: countedTricks, ref: ref(countedEvent, `tricks counted: ${SEATS.map((s) => `${s} ${countedTricks[s]}`).join(', ')}`) }
      : null;

  // The cards in the order played, four to a trick, with the entry each came from.
  const played = ours
    .filter((e) => e.type === 'CardPlayed' && ofHand(e))
    .map((e) => {
      const p = e.payload as { seat: Seat; card: string };
      return { seat: p.seat, card: p.card, ref: ref(e, `${SEAT_NAMES[p.seat]} played ${cardText(p.card)}`) };
    });
  const groups: (typeof played)[] = [];
  played.forEach((card, i) => {
    if (i % 4 === 0) groups.push([]);
    groups[groups.length - 1]!.push(card);
  });

  const rules = resolveRules(game.rules);
  const deck = deckFor(rules.options);
  let problem: string | null = null;
  const tricks: ReplayTrick[] = [];
  if (groups.length > 0) {
    const cards = groups.map((g) => g.map((c) => parseCard(c.card) ?? -1));
    const deal = recordHand?.deal ? (Object.fromEntries(SEATS.map((s) => [s, recordHand.deal![s].map((n) => parseCard(n) ?? -1)])) as Record<Seat, number[]>) : undefined;
    try {
      const result = replayPlays(deck, dealer, cards, deal);
      const marked = (list: Violation[], seat: Seat, trick: number) => list.some((v) => v.seat === seat && v.trick === trick);
      const taken: Record<Seat, number> = { N: 0, E: 0, S: 0, W: 0 };
      result.tricks.forEach((trick, t) => {
        const winner = result.winners[t] ?? null;
        if (winner) taken[winner]++;
        tricks.push({
          number: t + 1,
          leader: trick.leader,
          winner,
          taken: { ...taken },
          cards: groups[t]!.map((c, i) => ({
            ...c,
            renege: marked(result.reneges, c.seat, t + 1),
            illegalLead: i === 0 && marked(result.illegalLeads, c.seat, t + 1),
          })),
        });
      });
    } catch (error) {
      problem = `the recorded plays cannot be replayed: ${(error as Error).message}`;
    }
  }

  let deal: Record<Seat, string[]> | null = recordHand?.deal ?? null;
  let inferred = false;
  if (!deal && played.length > 0) {
    // Without a recorded deal, a seat held at the start every card it went on to play.
    deal = { N: [], E: [], S: [], W: [] };
    for (const card of played) deal[card.seat].push(card.card);
    inferred = true;
  }

  const claimEvents = ours.filter((e) => e.type === 'RenegeClaimed' && ofHand(e));
  const claims: ReplayClaim[] = claimEvents.map((e) => {
    const p = e.payload as { claimId: string; seat: Seat; trick: number | null };
    const rulingEvent = ours.find((r) => r.type === 'RulingGiven' && (r.payload as GameEventPayload).claimId === p.claimId);
    const r = rulingEvent?.payload as { upheld: boolean; judge: string; note: string } | undefined;
    // A ruling withdrawn later stays shown, marked, with no effect (the record leaves it out).
    const withdrawal = ours.find((w) => w.type === 'RulingWithdrawn' && (w.payload as GameEventPayload).claimId === p.claimId);
    const w = withdrawal?.payload as { judge: string; reason: string } | undefined;
    return {
      seat: p.seat,
      trick: p.trick,
      ref: ref(e, `renege claimed against ${SEAT_NAMES[p.seat]}${p.trick !== null ? `, trick ${p.trick}` : ''}`),
      ruling:
        rulingEvent && r
          ? {
              ...r,
              ref: ref(rulingEvent, `${r.judge} ${r.upheld ? 'upheld' : 'rejected'} the claim`),
              ...(withdrawal && w ? { withdrawn: { judge: w.judge, reason: w.reason, ref: ref(withdrawal, `${w.judge} withdrew the ruling`) } } : {}),
            }
          : null,
      effect: null,
    };
  });
  const closed = game.hands[hand - 1];
  const ruled = claims.filter((c) => c.ruling && !c.ruling.withdrawn);
  if (closed && !closed.misdeal) ruled.forEach((claim, k) => (claim.effect = rulingEffect(game, hand, k)));

  const previous = game.rows[hand - 2];
  return {
    gameId: game.gameId,
    hand,
    dealer,
    players: game.seats,
    teamNames: { NS: teamNames[game.teams.NS] ?? game.teams.NS, EW: teamNames[game.teams.EW] ?? game.teams.EW },
    deal,
    inferred,
    dealRef: ref(dealt, `${SEAT_NAMES[dealer]} dealt hand ${hand}`),
    bids,
    misdeal,
    tricks,
    counted,
    claims,
    takenBack,
    problem,
    before: previous ? { NS: previous.NS.score, EW: previous.EW.score } : { NS: game.start?.NS.score ?? 0, EW: game.start?.EW.score ?? 0 },
    row: closed ? (game.rows[hand - 1] ?? null) : null,
  };
}

/**
 * What the k-th ruling of a hand changed in its points: the hand scored as recorded, less the
 * hand scored without that ruling, through the same scorer as everything else. Only the hands
 * up to this one are scored, so a later hand cannot make the comparison fail.
 */
function rulingEffect(game: GameModel, hand: number, k: number): Record<Team, number> | null {
  const record = structuredClone(gameRecord(game)) as { hands: RecordHand[]; timeCalled?: number };
  record.hands = record.hands.slice(0, hand);
  if (record.timeCalled !== undefined && record.timeCalled > hand) delete record.timeCalled;
  const without = structuredClone(record);
  const reneges = without.hands[hand - 1]!.reneges ?? [];
  reneges.splice(k, 1);
  if (reneges.length === 0) delete without.hands[hand - 1]!.reneges;
  try {
    const a = scoreRecord(record).hands[hand - 1]!;
    const b = scoreRecord(without).hands[hand - 1]!;
    return { NS: a.NS.points - b.NS.points, EW: a.EW.points - b.EW.points };
  } catch {
    return null;
  }
}

const SUIT_ORDER = ['S', 'H', 'D', 'C'];

/** A hand as a player fans it: jokers, then spades, hearts, diamonds, clubs, high to low. */
function sortHand(cards: readonly string[]): string[] {
  const key = (name: string) => {
    const card = parseCard(name);
    if (card === null) return [9, 0];
    const suit = naturalSuit(card);
    return suit === null ? [-1, -card] : [SUIT_ORDER.indexOf(suit), -naturalRank(card)];
  };
  return [...cards].sort((a, b) => {
    const [sa, ra] = key(a);
    const [sb, rb] = key(b);
    return sa! - sb! || ra! - rb!;
  });
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

export interface ReplayPageProps {
  replay: HandReplay;
  step: number;
  /** Where the game's own page is. */
  gameLink: string;
}

/** The replay page at one step. */
export function ReplayPage({ replay, step, gameLink }: ReplayPageProps) {
  const steps = stepCount(replay);
  const last = steps - 1;
  const trick = step >= 1 && step <= replay.tricks.length ? replay.tricks[step - 1]! : null;
  const countedStep = replay.counted !== null && step === last;
  const label = step === 0 ? 'Deal and bids' : trick ? `Trick ${trick.number}` : 'Tricks counted';
  const title = `Game ${replay.gameId} · hand ${replay.hand} · ${label}`;

  // The cards each seat still holds once this step is over.
  const playedSoFar = new Set(replay.tricks.slice(0, trick ? trick.number : countedStep ? replay.tricks.length : 0).flatMap((t) => t.cards.map((c) => c.card)));
  const holding = (seat: Seat) => sortHand((replay.deal?.[seat] ?? []).filter((c) => !playedSoFar.has(c)));

  const refs: LedgerRef[] = [];
  if (step === 0) {
    refs.push(replay.dealRef, ...replay.bids.map((b) => b.ref));
    if (replay.misdeal) refs.push(replay.misdeal.ref);
  }
  if (trick) refs.push(...trick.cards.map((c) => c.ref));
  if (countedStep) refs.push(replay.counted!.ref);
  // A claim shows where it points: at its trick, or at the end when it names none.
  const claimsHere = replay.claims.filter((c) =>
    trick ? c.trick === trick.number : step === last && (c.trick === null || c.trick > replay.tricks.length),
  );
  for (const claim of claimsHere) {
    refs.push(claim.ref);
    if (claim.ruling) refs.push(claim.ruling.ref);
    if (claim.ruling?.withdrawn) refs.push(claim.ruling.withdrawn.ref);
  }
  if (step === last) for (const t of replay.takenBack) refs.push(t.entry, t.undo);
  refs.sort((a, b) => a.position - b.position);
  const taken = trick ? trick.taken : countedStep ? replay.counted!.tricks : null;

  return (
    <Layout title={title}>
      <p class="breadcrumb">
        <a href={gameLink}>Game {replay.gameId}</a>
      </p>
      <h1>
        Hand {replay.hand} replay <span class="muted">· {label}</span>
      </h1>
      <dl class="facts">
        <div>
          <dt>Dealer</dt>
          <dd>{SEAT_NAMES[replay.dealer]}</dd>
        </div>
        {TEAMS.map((team) => (
          <div>
            <dt>
              {replay.teamNames[team]} ({team}) before the hand
            </dt>
            <dd>{replay.before[team]}</dd>
          </div>
        ))}
      </dl>

      <nav class="tournament-nav replay-nav" aria-label="Replay steps">
        <ul>
          <li>
            {step > 0 ? (
              <a href={replayLink(replay.gameId, replay.hand, step - 1)} rel="prev" data-replay="prev">
                ← Previous
              </a>
            ) : (
              <span class="muted">← Previous</span>
            )}
          </li>
          <li>
            <span id="replay-step" data-step={step} data-steps={steps} aria-live="polite">
              Step {step} of {last}: {label}
            </span>
          </li>
          <li>
            {step < last ? (
              <a href={replayLink(replay.gameId, replay.hand, step + 1)} rel="next" data-replay="next">
                Next →
              </a>
            ) : (
              <span class="muted">Next →</span>
            )}
          </li>
        </ul>
      </nav>
      <p class="muted">Use the ← and → keys, or the links, to step through the hand.</p>

      {replay.problem ? <p class="notice notice--review">{replay.problem}</p> : null}
      {replay.misdeal ? (
        <p class="notice notice--review" data-misdeal>
          Misdeal: {replay.misdeal.reason}. The hand scores nothing and is dealt again.
        </p>
      ) : null}

      {step === 0 ? <Bids replay={replay} /> : null}

      <section class="hand" aria-label={`Hand ${replay.hand}, ${label}`}>
        {replay.deal ? null : <p class="empty">The cards of this hand were not recorded, only the tricks each seat took.</p>}
        {replay.inferred ? <p class="muted">The deal was not recorded: each seat is shown holding the cards it went on to play.</p> : null}
        <div class="compass">
          {SEATS.map((seat) => {
            const classes = ['seat', `seat--${seat}`, `seat--${teamOf(seat) === 'NS' ? 'ns' : 'ew'}`];
            if (seat === replay.dealer) classes.push('is-dealer');
            const bid = replay.bids.find((b) => b.seat === seat)?.bid;
            const cards = holding(seat);
            return (
              <div class={classes.join(' ')} data-seat={seat}>
                <p class="seat-name">
                  {SEAT_NAMES[seat]}
                  {seat === replay.dealer ? (
                    <span class="dealer-chip" title="Dealer">
                      <span aria-hidden="true">D</span>
                      <span class="visually-hidden"> (dealer)</span>
                    </span>
                  ) : null}
                </p>
                {replay.players[seat] ? <p class="player">{replay.players[seat]}</p> : null}
                <p class="seat-line">
                  <span class="seat-bid">Bid {bid === undefined ? '—' : String(bid)}</span>
                  <span class="seat-tricks">Tricks {taken ? taken[seat] : step === 0 ? 0 : '—'}</span>
                </p>
                {replay.deal ? (
                  <p class="seat-hand" data-holding={cards.length}>
                    <span class="visually-hidden">{cards.length} cards: </span>
                    {cards.map((c) => (
                      <>
                        <CardFace name={c} />{' '}
                      </>
                    ))}
                  </p>
                ) : null}
              </div>
            );
          })}
          <div class="trick">
            {trick ? (
              <>
                <p class="trick-title" data-trick={trick.number}>
                  {trick.winner ? `Trick ${trick.number} to ${SEAT_NAMES[trick.winner]}` : `Trick ${trick.number}, ${SEAT_NAMES[trick.leader]} led`}
                </p>
                <ol class="trick-cards">
                  {trick.cards.map((c, i) => (
                    <li
                      class={`trick-card trick-card--${c.seat}`}
                      data-seat={c.seat}
                      {...(c.renege ? { 'data-violation': 'renege' } : c.illegalLead ? { 'data-violation': 'illegal-lead' } : {})}
                    >
                      <span class="visually-hidden">
                        {i + 1}. {SEAT_NAMES[c.seat]}:{' '}
                      </span>
                      <CardFace name={c.card} />
                      {c.renege ? <span class="badge badge--review">renege</span> : null}
                      {c.illegalLead ? <span class="badge badge--review">illegal lead</span> : null}
                    </li>
                  ))}
                </ol>
              </>
            ) : (
              <p class="trick-title">{step === 0 ? `${replay.bids.length} of 4 bids` : countedStep ? 'Tricks counted at the end' : ''}</p>
            )}
          </div>
        </div>
      </section>

      {trick ? <TrickDetail trick={trick} /> : null}
      {taken ? <RunningCounts taken={taken} names={replay.teamNames} /> : null}
      {claimsHere.length > 0 ? <Claims claims={claimsHere} names={replay.teamNames} /> : null}
      {step === last && replay.takenBack.length > 0 ? (
        <p class="muted" data-taken-back={replay.takenBack.length}>
          {replay.takenBack.length === 1 ? 'One entry was' : `${replay.takenBack.length} entries were`} taken back at the table; the steps show the
          hand without {replay.takenBack.length === 1 ? 'it' : 'them'}, and the ledger entries below include {replay.takenBack.length === 1 ? 'it' : 'them'} and
          {replay.takenBack.length === 1 ? ' its undoing' : ' their undoing'}.
        </p>
      ) : null}
      {step === last ? <RulingsCounted replay={replay} /> : null}
      {step === last ? <HandScore replay={replay} /> : null}
      <Provenance refs={refs} />
      <script src="/static/replay.js" defer></script>
    </Layout>
  );
}

function Bids({ replay }: { replay: HandReplay }) {
  return (
    <section aria-labelledby="replay-bids">
      <h2 id="replay-bids">Bids, in the order made</h2>
      {replay.bids.length === 0 ? (
        <p class="empty">No bids were made.</p>
      ) : (
        <ol class="link-list">
          {replay.bids.map((b) => (
            <li data-bid={b.seat}>
              {SEAT_NAMES[b.seat]}
              {replay.players[b.seat] ? ` (${replay.players[b.seat]})` : ''}: <strong>{String(b.bid)}</strong>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function TrickDetail({ trick }: { trick: ReplayTrick }) {
  const marks = trick.cards.filter((c) => c.renege || c.illegalLead);
  return (
    <section aria-labelledby="replay-trick">
      <h2 id="replay-trick">Trick {trick.number}</h2>
      <ol class="link-list">
        {trick.cards.map((c, i) => (
          <li>
            {i === 0 ? `${SEAT_NAMES[c.seat]} led ` : `${SEAT_NAMES[c.seat]} played `}
            <CardFace name={c.card} />
          </li>
        ))}
      </ol>
      {trick.winner ? (
        <p>
          <strong>{SEAT_NAMES[trick.winner]}</strong> won the trick.
        </p>
      ) : null}
      {marks.map((c) => (
        <p class="notice notice--review" data-mark={c.renege ? 'renege' : 'illegal-lead'}>
          {c.renege
            ? `Renege: ${SEAT_NAMES[c.seat]} played ${cardText(c.card)} without following the suit led while still holding it (trick ${trick.number}).`
            : `Illegal lead: ${SEAT_NAMES[c.seat]} led ${cardText(c.card)}, a trump, before trumps were broken while holding another suit (trick ${trick.number}).`}
        </p>
      ))}
    </section>
  );
}

function RunningCounts({ taken, names }: { taken: Record<Seat, number>; names: Record<Team, string> }) {
  return (
    <dl class="facts" aria-label="Tricks taken so far">
      {TEAMS.map((team) => {
        const [a, b] = seatsOf(team);
        return (
          <div data-team-tricks={team}>
            <dt>
              {names[team]} ({team}) tricks
            </dt>
            <dd>
              {taken[a] + taken[b]}{' '}
              <span class="muted">
                ({a} {taken[a]}, {b} {taken[b]})
              </span>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function Claims({ claims, names }: { claims: ReplayClaim[]; names: Record<Team, string> }) {
  return (
    <section aria-labelledby="replay-claims">
      <h2 id="replay-claims">Claims and rulings</h2>
      <ul class="link-list">
        {claims.map((c) => (
          <li class="notice notice--review" data-claim={c.seat}>
            Renege claimed against {SEAT_NAMES[c.seat]}
            {c.trick !== null ? `, trick ${c.trick}` : ''}.{' '}
            {c.ruling ? (
              <>
                Ruling by {c.ruling.judge}: {c.ruling.upheld ? 'upheld' : 'rejected'}
                {c.ruling.note ? ` (${c.ruling.note})` : ''}.{' '}
                {c.ruling.withdrawn
                  ? `Withdrawn by ${c.ruling.withdrawn.judge} (${c.ruling.withdrawn.reason}): it no longer counts.`
                  : c.effect
                  ? `Effect on the hand's points: ${TEAMS.map((t) => `${names[t]} ${signed(c.effect![t])}`).join(', ')}.`
                  : 'Its effect shows once the hand is scored.'}
              </>
            ) : (
              'Awaiting a ruling.'
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The last step's word on the rulings: the tricks above are as played, the score below is as
 * ruled, so each ruling is named there with what it did to the score and, where it undid a
 * decided match, what it reopened and voided.
 */
function RulingsCounted({ replay }: { replay: HandReplay }) {
  const ruled = replay.claims.filter((c) => c.ruling !== null);
  if (ruled.length === 0) return null;
  return (
    <section aria-labelledby="replay-rulings" data-rulings-counted>
      <h2 id="replay-rulings">Rulings in this score</h2>
      <p>The tricks above are as played; the score below is as the judge ruled.</p>
      <ul class="link-list">
        {ruled.map((c) => {
          const ruling = c.ruling!;
          const what = `The ${ruling.upheld ? 'upheld' : 'denied'} renege claimed against ${SEAT_NAMES[c.seat]}${c.trick !== null ? ` at trick ${c.trick}` : ''} (${ruling.judge}, entry ${ruling.ref.position} of the ledger)`;
          const consequence = replay.consequences?.[ruling.ref.position];
          return (
            <li class="notice notice--review" data-ruling-position={String(ruling.ref.position)}>
              {ruling.withdrawn
                ? `${what} was withdrawn by ${ruling.withdrawn.judge} at entry ${ruling.withdrawn.ref.position}: the score does not count it.`
                : `${what}: ${c.effect ? `${TEAMS.map((t) => `${replay.teamNames[t]} ${signed(c.effect![t])}`).join(', ')} in this hand` : 'counted once the hand is scored'}.`}
              {consequence ? ` ${consequence}` : ''}
              {ruling.withdrawn && replay.consequences?.[ruling.withdrawn.ref.position] ? ` Its withdrawal: ${replay.consequences[ruling.withdrawn.ref.position]}` : ''}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function HandScore({ replay }: { replay: HandReplay }) {
  const row = replay.row;
  return (
    <section aria-labelledby="replay-score">
      <h2 id="replay-score">Hand score</h2>
      {row === null ? (
        <p class="empty">This hand is still being played.</p>
      ) : (
        <div class="table-scroll" role="region" aria-labelledby="replay-score" tabindex={0}>
          <table class="pad" id="hand-score">
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col" class="num">
                  Points
                </th>
                <th scope="col" class="num">
                  Score
                </th>
                <th scope="col" class="num">
                  Bags
                </th>
                <th scope="col" class="num">
                  Sets
                </th>
              </tr>
            </thead>
            <tbody>
              {TEAMS.map((team) => (
                <tr data-team={team} data-points={row[team].points} data-score={row[team].score}>
                  <th scope="row">
                    {replay.teamNames[team]} ({team})
                  </th>
                  <td class="num">{signed(row[team].points)}</td>
                  <td class="num total">{row[team].score}</td>
                  <td class="num">{row[team].bags}</td>
                  <td class="num">{row[team].sets}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {row && (row.reneges.length > 0 || row.illegalLeads.length > 0) ? (
        <p class="muted">
          The plays show{' '}
          {[...row.reneges.map((r) => `a renege by ${SEAT_NAMES[r.seat]} at trick ${r.trick}`), ...row.illegalLeads.map((l) => `an illegal lead by ${SEAT_NAMES[l.seat]} at trick ${l.trick}`)].join(
            '; ',
          )}
          .
        </p>
      ) : null}
    </section>
  );
}

function Provenance({ refs }: { refs: LedgerRef[] }) {
  return (
    <section aria-labelledby="replay-ledger">
      <h2 id="replay-ledger">From the ledger</h2>
      <p class="muted">
        Each entry this step was read from, by position, with its hash in the chain. <a href="/verify">Verify the chain</a>.
      </p>
      <div class="table-scroll" role="region" aria-labelledby="replay-ledger" tabindex={0}>
        <table class="pad" id="replay-refs">
          <thead>
            <tr>
              <th scope="col" class="num">
                Position
              </th>
              <th scope="col">Event</th>
              <th scope="col">Says</th>
              <th scope="col">Hash</th>
            </tr>
          </thead>
          <tbody>
            {refs.map((r) => (
              <tr data-position={r.position}>
                <td class="num">
                  <a href={`/api/events?after=${r.position - 1}&limit=1`}>{r.position}</a>
                </td>
                <td>{r.type}</td>
                <td>{r.says}</td>
                <td class="hash-cell">
                  <code class="hash" title={r.hash}>{r.hash}</code>{' '}
                  <button type="button" class="copy-hash" data-copy={r.hash} aria-label={`Copy the hash of position ${r.position}`}>
                    Copy
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
