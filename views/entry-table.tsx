/**
 * The scorekeeper's phone at a table: one panel that always shows the next thing to record and
 * whose turn it is, with a big button for each choice the rules leave open. The route works out
 * the choices with the engine; this only draws them. The panel is the answer to every tap.
 *
 * While cards are played, nothing above the card grid changes height and the grid itself never
 * changes shape: one row a suit, every card of the deck in its own place, a card played or held
 * by another seat greyed out where it is. A second tap lands on the same card it was aimed at,
 * never on the one that slid into its place. The last entry, the rule it broke and Undo are
 * pinned at the top. Every form carries its own command id and says where the tap was made
 * (static/outbox.js keeps the entries on the phone while the network is down).
 */
import { pointsText } from './team-standing.ts';
import { SeatList } from './progressive-panels.tsx';
import { SEAT_NAMES, type Seat } from '../engine/cards.ts';
import { misdealWords } from '../engine/rule-lines.ts';
import type { BidValue } from '../events/event-catalogue.ts';
import { type BlindChance, BlindBeforeDeal } from './blind-declaration.tsx';
import { CardFace } from './card-face.tsx';
import { Notice, PostForm } from './entry-forms.tsx';
import { type FirstDealerInfo, FirstDealerFields } from './seating-forms.tsx';
import { tournamentLinks } from '../events/addresses.ts';
import { cardText, cardWords } from '../engine/card-names.ts';

export const ENTRY_PANEL_ID = 'entry-panel';

const SEAT_ORDER: readonly Seat[] = ['N', 'E', 'S', 'W'];

/** One card of the grid: its state for the seat to play, and what a phone needs to follow the trick without the server. */
export interface EntryCard {
  card: string;
  /** Still in play for this seat, already played, or (hands known from the deal) held by another seat. */
  state: 'open' | 'played' | 'elsewhere';
  /** The rule a play of it would break, for the seat to play. */
  breaks: string | null;
  /** The seat the deal gave it to, when the system dealt. */
  holder: Seat | null;
  /** Effective suit (0 = trumps) and strength within it, as the engine's deck ranks them. */
  suit: number;
  power: number;
}

export interface EntryGame {
  gameId: string;
  number: number;
  teams: { NS: string; EW: string };
  seats: Partial<Record<Seat, string>>;
  score: { NS: number; EW: number };
  /** Who won and how, once the game is over. */
  over: string | null;
  /** The next hand to deal, when none is in play. */
  deal: { hand: number; dealer: Seat; blind?: BlindChance[] } | null;
  hand: { number: number; dealer: Seat; order: Seat[]; bids: Partial<Record<Seat, BidValue>>; dealt: boolean } | null;
  bidding: { seat: Seat; options: BidValue[] } | null;
  play: {
    seat: Seat;
    trick: number;
    hand: number;
    /** Cards recorded in this hand so far. */
    played: number;
    /** Who led the trick on the table (the seat to play when it is a new trick). */
    leader: Seat;
    onTable: { seat: Seat; card: string }[];
    trumpsBroken: boolean;
    /** Whether the seats' cards are known from the system's deal. */
    known: boolean;
    /** The deck, one row a suit; null where the preset takes a card out. */
    rows: { suit: 'S' | 'H' | 'C' | 'D' | 'J'; cells: (EntryCard | null)[] }[];
  } | null;
  /** Quick mode is open: bids are in, no card has been recorded. */
  quick: boolean;
  misdealReasons: string[];
  /** Rule breaks the plays show so far ("renege by E at trick 3"). */
  flags: string[];
  /** The last entry since the deal, in words, and the rule it broke. */
  last: { text: string; flag: string | null } | null;
  /** What an undo would take back, if anything. */
  undo: string | null;
  /** Hands a renege claim may point at, newest first. */
  claimHands: number[];
  /** A renege the engine found that nobody has claimed: the claim form starts from it. */
  finding: { seat: Seat; hand: number; trick: number } | null;
  openClaims: string[];
}

export interface EntryPanelProps {
  csrf: string;
  tournamentId: string;
  tournamentName: string;
  table: number;
  /** Matches that may start at this table; a next game of the match when one is due. */
  start: { matchId: string; label: string; teams: [string, string]; next: boolean; firstDealer?: FirstDealerInfo }[];
  game: EntryGame | null;
  /**
   * A progressive evening's table: the round and hand in the evening's words ("Round 2 · Hand 3
   * of 4"), and what comes once its round is over: the next seating, or the end of the evening
   * with the final standings' address.
   */
  evening?: { round: number; words: string | null; roundsInEvent: number; over: boolean; standings: string } | null;
  error?: string | null;
  done?: string | null;
  /** The ledger position the panel was drawn at: static/outbox.js redraws it when the table's stream reports a later entry. */
  at?: number;
  /** Where the round's paper score sheet is entered whole, while nothing is recorded at the table. */
  sheet?: string | null;
}

const bidLabel = (bid: BidValue) => (typeof bid === 'number' ? String(bid) : bid.replace(/^./, (c) => c.toUpperCase()));
const SUIT_NAMES: Record<string, string> = { S: 'Spades', H: 'Hearts', C: 'Clubs', D: 'Diamonds', J: 'Jokers' };

/** The panel a tap answers with: the next entry, the choices, undo and claims. */
export function EntryPanel(props: EntryPanelProps) {
  const { csrf, game, table } = props;
  const gamePath = game ? `/entry/games/${encodeURIComponent(game.gameId)}` : '';
  const post = (path: string) => ({ action: `${gamePath}${path}`, target: ENTRY_PANEL_ID, csrf });
  const inPlay = Boolean(game && (game.play || game.bidding));
  return (
    <section
      id={ENTRY_PANEL_ID}
      class={`entry${game?.play ? ' entry--play' : ''}`}
      aria-labelledby="entry-title"
      data-next={nextLabel(game)}
      data-outbox={`${props.tournamentId}/${table}`}
      data-at={props.at === undefined ? undefined : String(props.at)}
    >
      <header class="entry-head">
        {/* "What are we playing?" answered in one tap, at any moment of the game, beside the table's name. */}
        <div class="entry-title-row">
          <h1 id="entry-title">
            Table {table}
            {game ? (
              <span class="entry-match">
                {' '}
                · {game.teams.NS} vs {game.teams.EW}
              </span>
            ) : null}
          </h1>
          <a class="entry-rules" href={tournamentLinks(props.tournamentId).rules}>
            Rules
          </a>
        </div>
        {game ? (
          <p class="entry-score">
            {props.evening?.words ?? `Game ${game.number}${game.hand ? `, hand ${game.hand.number}` : ''}`} · {game.teams.NS}{' '}
            <strong data-score="NS">{pointsText(game.score.NS)}</strong> · {game.teams.EW} <strong data-score="EW">{pointsText(game.score.EW)}</strong>
          </p>
        ) : null}
        {game ? <SeatList seats={game.seats} /> : null}
      </header>

      <div class={`entry-status${inPlay ? ' entry-status--pinned' : ''}`}>
        <div class="entry-last" aria-live="polite">
          {/* Filled by static/outbox.js: entries kept on the phone while the network is down. */}
          <p class="outbox-state" data-outbox-state hidden></p>
          {props.error || props.done ? (
            <Notice error={props.error ?? null} done={props.done ?? null} />
          ) : game?.last ? (
            <p class="notice notice--last" data-last>
              <span class="visually-hidden">Last entry: </span>
              {game.last.text}
              {game.last.flag ? <span class="entry-flag"> ⚑ Flagged: {game.last.flag}.</span> : null}
            </p>
          ) : null}
        </div>
        {inPlay ? (
          <PostForm {...post('/undo')} class="undo-form" entry="undo">
            <button
              type="submit"
              class="big-button big-button--quiet undo-button"
              data-action="undo"
              disabled={!game?.undo}
              title={game?.undo ? `Undo ${game.undo}` : 'Nothing to undo'}
            >
              Undo
              <span class="visually-hidden">{game?.undo ? ` ${game.undo}` : ''}</span>
            </button>
          </PostForm>
        ) : null}
      </div>

      {props.start.length > 0 ? (
        <section class="entry-step" aria-label="Start a game">
          <h2 class="turn">Start the game</h2>
          {props.start.map((m) => (
            <PostForm
              action={`/entry/tables/${encodeURIComponent(props.tournamentId)}/${table}/start`}
              target={ENTRY_PANEL_ID}
              csrf={csrf}
              class="start-form"
              entry="start"
            >
              <input type="hidden" name="matchId" value={m.matchId} />
              <p>
                {m.label}: {m.teams[0]} (North–South) vs {m.teams[1]} (East–West)
              </p>
              {!m.next && m.firstDealer ? <FirstDealerFields info={m.firstDealer} /> : null}
              <button type="submit" class="big-button" data-action="start">
                {m.next ? 'Start the next game' : 'Start the match here'}
              </button>
            </PostForm>
          ))}
        </section>
      ) : null}

      {props.evening && (!game || game.over) ? (
        props.evening.over ? (
          <p class="entry-waiting" data-evening="over">
            The evening is over: all {props.evening.roundsInEvent} rounds are played. <a href={props.evening.standings}>See the final standings</a>
          </p>
        ) : (
          <p class="entry-waiting" data-evening="between">
            Round {props.evening.round} is over at this table. This page shows round {props.evening.round + 1}'s game here as soon as the director seats it.
          </p>
        )
      ) : !game && props.start.length === 0 ? (
        <p class="entry-waiting">No match is ready for this table yet.</p>
      ) : null}

      {game?.over ? <p class="notice notice--result">{game.over}</p> : null}

      {game?.deal ? (
        <section class="entry-step" aria-label="Deal">
          <h2 class="turn" data-turn={game.deal.dealer}>
            {SEAT_NAMES[game.deal.dealer]} deals hand {game.deal.hand}
          </h2>
          <div class="button-row">
            <PostForm {...post('/deal')} entry="deal">
              <input type="hidden" name="dealer" value={game.deal.dealer} />
              <input type="hidden" name="shuffle" value="table" />
              <button type="submit" class="big-button" data-action="deal-table">
                {SEAT_NAMES[game.deal.dealer]} dealt the physical cards
              </button>
            </PostForm>
            <PostForm {...post('/deal')} entry="deal">
              <input type="hidden" name="dealer" value={game.deal.dealer} />
              <input type="hidden" name="shuffle" value="system" />
              <button type="submit" class="big-button big-button--quiet" data-action="deal-system">
                Deal from the system’s shuffle
              </button>
            </PostForm>
          </div>
          {(game.deal.blind ?? []).map((chance) => (
            <BlindBeforeDeal chance={chance} dealer={game.deal!.dealer} form={post('/deal')} />
          ))}
        </section>
      ) : null}

      {props.sheet ? (
        <p class="entry-sheet">
          <a class="big-button big-button--quiet" href={props.sheet}>
            Enter the whole round from the score sheet
          </a>
        </p>
      ) : null}

      {game?.bidding ? (
        <section class="entry-step" aria-label="Bidding">
          <h2 class="turn" data-turn={game.bidding.seat}>
            {SEAT_NAMES[game.bidding.seat]} to bid
          </h2>
          <div class="choice-grid">
            {game.bidding.options.map((bid) => (
              <PostForm {...post('/bid')} class="choice" entry="bid">
                <input type="hidden" name="seat" value={game.bidding!.seat} />
                <input type="hidden" name="bid" value={String(bid)} />
                <button type="submit" class="choice-button" data-bid={String(bid)}>
                  {bidLabel(bid)}
                </button>
              </PostForm>
            ))}
          </div>
        </section>
      ) : null}

      {game?.play ? <PlayStep game={game} play={game.play} post={post} /> : null}

      {game?.hand ? (
        <ol class="entry-bids" aria-label="Bids">
          {game.hand.order.map((seat) => (
            <li data-seat={seat}>
              {SEAT_NAMES[seat]}
              {seat === game.hand!.dealer ? ' (dealer)' : ''}: <strong>{game.hand!.bids[seat] === undefined ? '—' : bidLabel(game.hand!.bids[seat]!)}</strong>
            </li>
          ))}
        </ol>
      ) : null}

      {game?.quick ? (
        <details class="entry-step quick-mode">
          <summary>Quick mode: record the tricks each seat took</summary>
          <PostForm {...post('/tricks')} class="tricks-form" entry="tricks">
            {SEAT_ORDER.map((seat) => (
              <label>
                {SEAT_NAMES[seat]} <input name={seat} type="number" inputmode="numeric" min={0} max={13} required />
              </label>
            ))}
            <button type="submit" class="big-button">
              Record the tricks
            </button>
          </PostForm>
        </details>
      ) : null}

      {game && !inPlay && game.undo ? (
        <PostForm {...post('/undo')} class="undo-form" entry="undo">
          <button type="submit" class="big-button big-button--quiet" data-action="undo">
            Undo {game.undo}
          </button>
        </PostForm>
      ) : null}

      {game && game.openClaims.length > 0 ? (
        <ul class="entry-claims" aria-label="Claims before a judge">
          {game.openClaims.map((c) => (
            <li>{c}</li>
          ))}
        </ul>
      ) : null}

      {game && (game.claimHands.length > 0 || game.misdealReasons.length > 0) ? (
        <details class="entry-step claims" open={game.finding !== null}>
          <summary>Call a judge: renege or misdeal</summary>
          {game.claimHands.length > 0 ? (
            <PostForm {...post('/claims/renege')} class="claim-form" entry="claim">
              <h3>Renege claim</h3>
              {game.finding ? (
                <p class="engine-finding" data-finding>
                  The record shows a renege by {SEAT_NAMES[game.finding.seat]} at trick {game.finding.trick} of hand {game.finding.hand}; the claim below is
                  filled in with it.
                </p>
              ) : null}
              <label>
                Against{' '}
                <select name="seat">
                  {SEAT_ORDER.map((s) => (
                    <option value={s} selected={game.finding?.seat === s}>
                      {SEAT_NAMES[s]}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Hand{' '}
                <select name="hand">
                  {game.claimHands.map((h) => (
                    <option value={String(h)} selected={game.finding?.hand === h}>
                      {h}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Trick{' '}
                <select name="trick">
                  {Array.from({ length: 13 }, (_, i) => (
                    <option value={String(i + 1)} selected={game.finding?.trick === i + 1}>
                      {i + 1}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" class="big-button" data-action="claim-renege">
                Claim a renege
              </button>
            </PostForm>
          ) : null}
          {game.misdealReasons.length > 0 ? (
            <PostForm {...post('/claims/misdeal')} class="claim-form" entry="misdeal">
              <h3>Misdeal</h3>
              <label>
                Reason{' '}
                <select name="reason">
                  {game.misdealReasons.map((r) => (
                    <option value={r}>{misdealWords(r)}</option>
                  ))}
                </select>
              </label>
              <button type="submit" class="big-button big-button--quiet" data-action="misdeal">
                Call a misdeal
              </button>
            </PostForm>
          ) : null}
        </details>
      ) : null}
    </section>
  );
}

interface PlayStepProps {
  game: EntryGame;
  play: NonNullable<EntryGame['play']>;
  post: (path: string) => { action: string; target: string; csrf: string };
}

/** Whose turn it is, the trick on the table in four fixed places, and the card grid. */
function PlayStep({ game, play, post }: PlayStepProps) {
  const onTable = new Map(play.onTable.map((p) => [p.seat, p.card]));
  return (
    <section class="entry-step entry-step--play" aria-label="Play">
      <div class="entry-turn">
        <h2 class="turn" data-turn={play.seat}>
          <span data-turn-text>
            {SEAT_NAMES[play.seat]} to play · trick {play.trick}
          </span>
        </h2>
        <ol class="on-table" aria-label="The trick on the table">
          {SEAT_ORDER.map((seat) => (
            <li class={`on-table-seat${seat === play.seat ? ' is-turn' : ''}${seat === play.leader && onTable.size > 0 ? ' is-leader' : ''}`} data-seat={seat}>
              <span class="on-table-name">{seat}</span>
              <span class="on-table-slot" data-slot={seat}>
                {onTable.has(seat) ? <CardFace name={onTable.get(seat)!} /> : <span class="on-table-empty">—</span>}
              </span>
            </li>
          ))}
        </ol>
      </div>
      <div
        class="card-grid"
        data-game={game.gameId}
        data-seat={play.seat}
        data-hand={String(play.hand)}
        data-played={String(play.played)}
        data-trick={String(play.trick)}
        data-leader={play.leader}
        data-broken={play.trumpsBroken ? '1' : '0'}
        data-known={play.known ? '1' : '0'}
        data-on-table={play.onTable.map((p) => p.card).join(' ')}
      >
        {play.rows.map((row) => (
          <div class={`card-row card-row--${row.suit}`} role="group" aria-label={SUIT_NAMES[row.suit]}>
            {row.cells.map((cell) =>
              cell === null ? (
                <span class="card-key card-key--none" aria-hidden="true"></span>
              ) : (
                <PostForm {...post('/play')} class="card-cell" entry="play">
                  <input type="hidden" name="seat" value={play.seat} />
                  <input type="hidden" name="card" value={cell.card} />
                  <input type="hidden" name="hand" value={String(play.hand)} />
                  <input type="hidden" name="played" value={String(play.played)} />
                  <CardKey cell={cell} />
                </PostForm>
              ),
            )}
          </div>
        ))}
      </div>
      <p class="choice-note">
        {play.known
          ? 'Grey cards are played or in another seat’s hand. A card marked ⚑ breaks a rule: it is recorded, and flagged.'
          : 'The table shuffled, so the hands are not known: grey cards are played, any other may be tapped.'}
      </p>
    </section>
  );
}

/** One card's button, in its fixed place: rank above suit, greyed and disabled once it cannot be played. */
function CardKey({ cell }: { cell: EntryCard }) {
  const face = cardText(cell.card);
  const joker = cell.card === 'BJ' || cell.card === 'LJ';
  const rank = joker ? (cell.card === 'BJ' ? 'Big' : 'Little') : face.slice(0, -1);
  const suit = joker ? '★' : face.slice(-1);
  const red = /[HD]$/.test(cell.card);
  const classes = ['card-key', red ? 'card-key--red' : 'card-key--black', `is-${cell.state}`];
  if (cell.breaks) classes.push('breaks-rule');
  const why =
    cell.state === 'played' ? ', played' : cell.state === 'elsewhere' ? ', in another seat’s hand' : cell.breaks ? `, breaks a rule: ${cell.breaks}` : '';
  return (
    <button
      type="submit"
      class={classes.join(' ')}
      data-card={cell.card}
      data-suit={String(cell.suit)}
      data-power={String(cell.power)}
      data-holder={cell.holder ?? undefined}
      disabled={cell.state !== 'open'}
      // Named first by what the key shows, so "K♠" said aloud to speech input finds the king.
      aria-label={`${rank}${suit}, ${cardWords(cell.card)}${why}`}
      title={cell.breaks ?? undefined}
    >
      <span class="card-key-rank" aria-hidden="true">
        {rank}
      </span>
      <span class="card-key-suit" aria-hidden="true">
        {suit}
      </span>
      {cell.breaks ? (
        <span class="flag-mark" aria-hidden="true">
          ⚑
        </span>
      ) : null}
    </button>
  );
}

/** A short machine-readable note of what the panel waits for, for scripts and tests. */
function nextLabel(game: EntryGame | null): string {
  if (!game) return 'start';
  if (game.over) return 'over';
  if (game.deal) return `deal:${game.deal.hand}`;
  if (game.bidding) return `bid:${game.bidding.seat}`;
  if (game.play) return `play:${game.play.seat}:${game.play.trick}:${game.play.onTable.length}`;
  return 'wait';
}
