/**
 * A hand replayed from the ledger, one step at a time: the deal and the bids, then each trick
 * as played with the hands shrinking, the winner, the running counts and whatever rule was
 * broken there, then the hand's score. Every step lists the ledger entries it was read from
 * (position and hash), so a disputed hand can be settled from the record rather than anyone's
 * word. Each step is its own address (`?step=N`), so the page works without scripts;
 * /static/replay.js only adds the ← and → keys and the buttons that copy a hash. The replay
 * itself is events/hand-replay.ts's, read from the game projection; this page words it.
 */
import { SEAT_NAMES, type Seat, type Team, SEATS, TEAMS, naturalRank, naturalSuit, parseCard, seatsOf, teamOf } from '../engine/cards.ts';
import { type HandReplay, type LedgerRef, type ReplayClaim, type ReplayTrick, stepCount } from '../events/hand-replay.ts';
import { CardFace } from './card-face.tsx';
import { Layout } from './layout.tsx';
import { cardText } from '../engine/card-names.ts';
import { misdealWords } from '../engine/rule-lines.ts';
import { replayLink } from '../events/addresses.ts';

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
  const claimsHere = replay.claims.filter((c) => (trick ? c.trick === trick.number : step === last && (c.trick === null || c.trick > replay.tricks.length)));
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

      {replay.problem ? <p class="notice notice--review">The recorded plays cannot be replayed: {replay.problem}</p> : null}
      {replay.misdeal ? (
        <p class="notice notice--review" data-misdeal>
          Misdeal: {misdealWords(replay.misdeal.reason)}. The hand scores nothing and is dealt again.
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
          {replay.takenBack.length === 1 ? 'One entry was' : `${replay.takenBack.length} entries were`} taken back at the table; the steps show the hand without{' '}
          {replay.takenBack.length === 1 ? 'it' : 'them'}, and the ledger entries below include {replay.takenBack.length === 1 ? 'it' : 'them'} and
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
              {ruling.withdrawn && replay.consequences?.[ruling.withdrawn.ref.position]
                ? ` Its withdrawal: ${replay.consequences[ruling.withdrawn.ref.position]}`
                : ''}
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
          {[
            ...row.reneges.map((r) => `a renege by ${SEAT_NAMES[r.seat]} at trick ${r.trick}`),
            ...row.illegalLeads.map((l) => `an illegal lead by ${SEAT_NAMES[l.seat]} at trick ${l.trick}`),
          ].join('; ')}
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
                <td>{says(r)}</td>
                <td class="hash-cell">
                  <code class="hash" title={r.hash}>
                    {r.hash}
                  </code>{' '}
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

/** What a ledger entry says, in words. */
function says(ref: LedgerRef): string {
  const fact = ref.fact;
  switch (fact.kind) {
    case 'dealt':
      return `${SEAT_NAMES[fact.dealer]} dealt hand ${fact.hand}`;
    case 'bid':
      return `${SEAT_NAMES[fact.seat]} bid ${fact.bid}`;
    case 'card':
      return `${SEAT_NAMES[fact.seat]} played ${cardText(fact.card)}`;
    case 'misdeal':
      return `misdeal: ${misdealWords(fact.reason)}`;
    case 'counted':
      return `tricks counted: ${SEATS.map((s) => `${s} ${fact.tricks[s]}`).join(', ')}`;
    case 'claim':
      return `renege claimed against ${SEAT_NAMES[fact.seat]}${fact.trick !== null ? `, trick ${fact.trick}` : ''}`;
    case 'ruling':
      return `${fact.judge} ${fact.upheld ? 'upheld' : 'rejected'} the claim`;
    case 'withdrawal':
      return `${fact.judge} withdrew the ruling`;
    case 'taken-back':
      return `${ref.type} at position ${ref.position}, taken back`;
    case 'undo':
      return `the entry at position ${fact.undone} taken back`;
    default: {
      const _exhaustive: never = fact;
      return _exhaustive;
    }
  }
}
