/**
 * The scorekeeper's phone at a table: one panel that always shows the next thing to record and
 * whose turn it is, with a big button for each choice the rules leave open. The route works out
 * the choices with the engine; this only draws them. The panel is the answer to every tap.
 */
import type { Seat } from '../engine/cards.ts';
import type { BidValue } from '../events/domain-events.ts';
import { CardFace } from './card-face.tsx';
import { Notice, PostForm } from './entry-forms.tsx';

export const ENTRY_PANEL_ID = 'entry-panel';

export const SEAT_NAMES: Record<Seat, string> = { N: 'North', E: 'East', S: 'South', W: 'West' };

export interface EntryGame {
  gameId: string;
  number: number;
  teams: { NS: string; EW: string };
  seats: Partial<Record<Seat, string>>;
  score: { NS: number; EW: number };
  /** Who won and how, once the game is over. */
  over: string | null;
  /** The next hand to deal, when none is in play. */
  deal: { hand: number; dealer: Seat } | null;
  hand: { number: number; dealer: Seat; order: Seat[]; bids: Partial<Record<Seat, BidValue>>; dealt: boolean } | null;
  bidding: { seat: Seat; options: BidValue[] } | null;
  play: {
    seat: Seat;
    trick: number;
    onTable: { seat: Seat; card: string }[];
    /** The cards the seat can still hold; `breaks` names the rule a play of it would break. */
    choices: { card: string; breaks: string | null }[];
    /** Whether the seat's cards are known from the system's deal. */
    known: boolean;
  } | null;
  /** Quick mode is open: bids are in, no card has been recorded. */
  quick: boolean;
  misdealReasons: string[];
  /** Rule breaks the plays show so far ("renege by E at trick 3"). */
  flags: string[];
  /** What an undo would take back, if anything. */
  undo: string | null;
  /** Hands a renege claim may point at, newest first. */
  claimHands: number[];
  openClaims: string[];
}

export interface EntryPanelProps {
  csrf: string;
  tournamentId: string;
  tournamentName: string;
  table: number;
  /** Matches that may start at this table; a next game of the match when one is due. */
  start: { matchId: string; label: string; teams: [string, string]; next: boolean }[];
  game: EntryGame | null;
  error?: string | null;
  done?: string | null;
}

const bidLabel = (bid: BidValue) => (typeof bid === 'number' ? String(bid) : bid.replace(/^./, (c) => c.toUpperCase()));

/** The panel a tap answers with: the next entry, the choices, undo and claims. */
export function EntryPanel(props: EntryPanelProps) {
  const { csrf, game, table } = props;
  const gamePath = game ? `/entry/games/${encodeURIComponent(game.gameId)}` : '';
  const post = (path: string) => ({ action: `${gamePath}${path}`, target: ENTRY_PANEL_ID, csrf });
  return (
    <section id={ENTRY_PANEL_ID} class="entry" aria-labelledby="entry-title" data-next={nextLabel(game)}>
      <header class="entry-head">
        <h1 id="entry-title">
          Table {table}
          {game ? (
            <span class="entry-match">
              {' '}
              · {game.teams.NS} vs {game.teams.EW} · game {game.number}
              {game.hand ? ` · hand ${game.hand.number}` : ''}
            </span>
          ) : null}
        </h1>
        {game ? (
          <p class="entry-score">
            {game.teams.NS} <strong data-score="NS">{game.score.NS}</strong> · {game.teams.EW} <strong data-score="EW">{game.score.EW}</strong>
          </p>
        ) : null}
      </header>

      <Notice error={props.error ?? null} done={props.done ?? null} />

      {props.start.length > 0 ? (
        <section class="entry-step" aria-label="Start a game">
          <h2 class="turn">Start the game</h2>
          {props.start.map((m) => (
            <PostForm action={`/entry/tables/${encodeURIComponent(props.tournamentId)}/${table}/start`} target={ENTRY_PANEL_ID} csrf={csrf} class="start-form">
              <input type="hidden" name="matchId" value={m.matchId} />
              <p>
                {m.label}: {m.teams[0]} (North–South) vs {m.teams[1]} (East–West)
              </p>
              {m.next ? null : (
                <label>
                  First dealer{' '}
                  <select name="firstDealer">
                    {(['N', 'E', 'S', 'W'] as Seat[]).map((s) => (
                      <option value={s}>{SEAT_NAMES[s]}</option>
                    ))}
                  </select>
                </label>
              )}
              <button type="submit" class="big-button" data-action="start">
                {m.next ? 'Start the next game' : 'Start the match here'}
              </button>
            </PostForm>
          ))}
        </section>
      ) : null}

      {!game && props.start.length === 0 ? <p class="entry-waiting">No match is ready for this table yet.</p> : null}

      {game?.over ? <p class="notice notice--result">{game.over}</p> : null}

      {game?.deal ? (
        <section class="entry-step" aria-label="Deal">
          <h2 class="turn" data-turn={game.deal.dealer}>
            {SEAT_NAMES[game.deal.dealer]} deals hand {game.deal.hand}
          </h2>
          <div class="button-row">
            <PostForm {...post('/deal')}>
              <input type="hidden" name="dealer" value={game.deal.dealer} />
              <input type="hidden" name="shuffle" value="system" />
              <button type="submit" class="big-button" data-action="deal-system">
                Deal from the system’s shuffle
              </button>
            </PostForm>
            <PostForm {...post('/deal')}>
              <input type="hidden" name="dealer" value={game.deal.dealer} />
              <input type="hidden" name="shuffle" value="table" />
              <button type="submit" class="big-button big-button--quiet" data-action="deal-table">
                The table shuffled: {SEAT_NAMES[game.deal.dealer]} dealt
              </button>
            </PostForm>
          </div>
        </section>
      ) : null}

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

      {game?.bidding ? (
        <section class="entry-step" aria-label="Bidding">
          <h2 class="turn" data-turn={game.bidding.seat}>
            {SEAT_NAMES[game.bidding.seat]} to bid
          </h2>
          <div class="choice-grid">
            {game.bidding.options.map((bid) => (
              <PostForm {...post('/bid')} class="choice">
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

      {game?.play ? (
        <section class="entry-step" aria-label="Play">
          <h2 class="turn" data-turn={game.play.seat}>
            {SEAT_NAMES[game.play.seat]} to play · trick {game.play.trick}
          </h2>
          {game.play.onTable.length > 0 ? (
            <p class="on-table">
              On the table:{' '}
              {game.play.onTable.map((p) => (
                <span class="on-table-card">
                  {p.seat} <CardFace name={p.card} />{' '}
                </span>
              ))}
            </p>
          ) : null}
          <p class="choice-note">
            {game.play.known
              ? `${SEAT_NAMES[game.play.seat]}’s cards from the deal. A card marked ⚑ breaks a rule: it is recorded, and flagged.`
              : `Cards ${SEAT_NAMES[game.play.seat]} can still hold (the table shuffled, so the hands are not known).`}
          </p>
          <div class="choice-grid choice-grid--cards">
            {game.play.choices.map((choice) => (
              <PostForm {...post('/play')} class="choice">
                <input type="hidden" name="seat" value={game.play!.seat} />
                <input type="hidden" name="card" value={choice.card} />
                <button
                  type="submit"
                  class={choice.breaks ? 'choice-button card-button breaks-rule' : 'choice-button card-button'}
                  data-card={choice.card}
                  title={choice.breaks ?? undefined}
                >
                  <CardFace name={choice.card} />
                  {choice.breaks ? <span class="flag-mark" aria-label={choice.breaks}>⚑</span> : null}
                </button>
              </PostForm>
            ))}
          </div>
        </section>
      ) : null}

      {game?.quick ? (
        <details class="entry-step quick-mode">
          <summary>Quick mode: record the tricks each seat took</summary>
          <PostForm {...post('/tricks')} class="tricks-form">
            {(['N', 'E', 'S', 'W'] as Seat[]).map((seat) => (
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

      {game && game.flags.length > 0 ? (
        <ul class="entry-flags" aria-label="Flagged plays">
          {game.flags.map((f) => (
            <li>⚑ {f}</li>
          ))}
        </ul>
      ) : null}

      {game?.undo ? (
        <PostForm {...post('/undo')} class="undo-form">
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
        <details class="entry-step claims">
          <summary>Call a judge: renege or misdeal</summary>
          {game.claimHands.length > 0 ? (
            <PostForm {...post('/claims/renege')} class="claim-form">
              <h3>Renege claim</h3>
              <label>
                Against{' '}
                <select name="seat">
                  {(['N', 'E', 'S', 'W'] as Seat[]).map((s) => (
                    <option value={s}>{SEAT_NAMES[s]}</option>
                  ))}
                </select>
              </label>
              <label>
                Hand{' '}
                <select name="hand">
                  {game.claimHands.map((h) => (
                    <option value={String(h)}>{h}</option>
                  ))}
                </select>
              </label>
              <label>
                Trick{' '}
                <select name="trick">
                  {Array.from({ length: 13 }, (_, i) => (
                    <option value={String(i + 1)}>{i + 1}</option>
                  ))}
                </select>
              </label>
              <button type="submit" class="big-button" data-action="claim-renege">
                Claim a renege
              </button>
            </PostForm>
          ) : null}
          {game.misdealReasons.length > 0 ? (
            <PostForm {...post('/claims/misdeal')} class="claim-form">
              <h3>Misdeal</h3>
              <label>
                Reason{' '}
                <select name="reason">
                  {game.misdealReasons.map((r) => (
                    <option value={r}>{r}</option>
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

/** A short machine-readable note of what the panel waits for, for scripts and tests. */
function nextLabel(game: EntryGame | null): string {
  if (!game) return 'start';
  if (game.over) return 'over';
  if (game.deal) return `deal:${game.deal.hand}`;
  if (game.bidding) return `bid:${game.bidding.seat}`;
  if (game.play) return `play:${game.play.seat}:${game.play.trick}:${game.play.onTable.length}`;
  return 'wait';
}
