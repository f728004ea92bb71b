/**
 * A progressive table's score sheet on the scorekeeper's phone (tournament-spades "One player
 * keeps the table's bids and scores for the round"): each hand's four bids and the tricks each
 * seat took, checked and shown scored before anything is recorded, then recorded on one tap.
 */
import { SEAT_NAMES, type Seat, type Team } from '../engine/cards.ts';
import { Layout } from './layout.tsx';
import { HiddenKeys, Notice } from './entry-forms.tsx';

const SEATS: readonly Seat[] = ['N', 'E', 'S', 'W'];

/** The form's field for one seat's bid or tricks in one hand: `bid-2-N`, `tricks-2-N`. */
export const sheetField = (what: 'bid' | 'tricks', hand: number, seat: Seat) => `${what}-${hand}-${seat}`;

export interface SheetPreviewHand {
  hand: number;
  dealer: Seat;
  bids: Record<Seat, string>;
  tricks: Record<Seat, number>;
  points: Record<Team, number>;
  score: Record<Team, number>;
}

export interface RoundSheetProps {
  csrf: string;
  tournamentName: string;
  table: number;
  round: number;
  /** Hands in the round; the form has one more, played only on a tie. */
  hands: number;
  /** Players by seat. */
  seats: Record<Seat, string>;
  /** Who deals each hand of the form, first to last. */
  dealers: Seat[];
  /** Bids the preset allows besides the numbers 0–13 ("nil"). */
  specialBids: string[];
  action: string;
  tablePage: string;
  /** The fields as sent, to fill the form again. */
  values: Record<string, string>;
  error?: string | null;
  /** The sheet as it would be recorded, scored, awaiting confirmation. */
  preview?: { hands: SheetPreviewHand[]; result: string } | null;
}

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const bidText = (bid: string) => (/^\d+$/.test(bid) ? bid : bid.replace(/^./, (c) => c.toUpperCase()));

/** The score sheet page: the form, and once checked, the sheet scored with the one button that records it. */
export function RoundSheetPage(props: RoundSheetProps) {
  const { seats, values } = props;
  const title = `Table ${props.table} · Round ${props.round} score sheet`;
  return (
    <Layout title={`${title} · ${props.tournamentName}`} signedIn={`Table ${props.table} scorekeeper`}>
      <section class="entry round-sheet" aria-labelledby="sheet-title">
        <h1 id="sheet-title">{title}</h1>
        <p>
          <a class="big-button big-button--quiet" href={props.tablePage}>
            Back to the table
          </a>
        </p>
        <p class="round-sheet-seats">
          {SEATS.map((seat) => (
            <span class="round-sheet-seat">
              {SEAT_NAMES[seat]}: <strong>{seats[seat]}</strong>
            </span>
          ))}
        </p>
        <Notice error={props.error ?? null} />
        {props.preview ? (
          <section class="confirm-step" aria-labelledby="sheet-check">
            <h2 id="sheet-check">Check the sheet, then record it</h2>
            <ol class="round-sheet-hands">
              {props.preview.hands.map((h) => (
                <li>
                  <strong>
                    Hand {h.hand}, {SEAT_NAMES[h.dealer]} dealt:
                  </strong>{' '}
                  bids {SEATS.map((s) => `${s} ${bidText(h.bids[s])}`).join(', ')}; tricks {SEATS.map((s) => `${s} ${h.tricks[s]}`).join(', ')}. North–South{' '}
                  {signed(h.points.NS)} ({h.score.NS}), East–West {signed(h.points.EW)} ({h.score.EW}).
                </li>
              ))}
            </ol>
            <p class="notice notice--result">{props.preview.result}</p>
            <form method="post" action={props.action} class="stack-form">
              <HiddenKeys csrf={props.csrf} />
              {Object.entries(values).map(([name, value]) => (
                <input type="hidden" name={name} value={value} />
              ))}
              <input type="hidden" name="confirm" value="yes" />
              <button type="submit" class="big-button" data-action="record-sheet">
                Record round {props.round} at table {props.table}
              </button>
            </form>
            <p>Something wrong? Change it below and check the sheet again; nothing is recorded until you tap Record.</p>
          </section>
        ) : null}
        <form method="post" action={props.action} class="stack-form round-sheet-form">
          <input type="hidden" name="_csrf" value={props.csrf} />
          {props.dealers.map((dealer, i) => {
            const hand = i + 1;
            const extra = hand > props.hands;
            return (
              <fieldset class="round-sheet-hand">
                <legend>
                  Hand {hand} · {SEAT_NAMES[dealer]} deals{extra ? ' · only if the sides are tied after hand 4' : ''}
                </legend>
                {SEATS.map((seat) => (
                  <div class="round-sheet-row">
                    <span class="round-sheet-who">
                      {SEAT_NAMES[seat]} <span class="round-sheet-name">{seats[seat]}</span>
                    </span>
                    <label>
                      <span class="visually-hidden">
                        Hand {hand}, {SEAT_NAMES[seat]},{' '}
                      </span>
                      Bid
                      <select name={sheetField('bid', hand, seat)} required={!extra}>
                        <option value="">—</option>
                        {[...Array.from({ length: 14 }, (_, n) => String(n)), ...props.specialBids].map((bid) => (
                          <option value={bid} selected={values[sheetField('bid', hand, seat)] === bid}>
                            {bidText(bid)}
                          </option>
                        ))}
                      </select>
                    </label>
                    <label>
                      <span class="visually-hidden">
                        Hand {hand}, {SEAT_NAMES[seat]},{' '}
                      </span>
                      Tricks
                      <input
                        name={sheetField('tricks', hand, seat)}
                        type="number"
                        inputmode="numeric"
                        min={0}
                        max={13}
                        required={!extra}
                        value={values[sheetField('tricks', hand, seat)] ?? ''}
                      />
                    </label>
                  </div>
                ))}
              </fieldset>
            );
          })}
          <button type="submit" class="big-button" data-action="check-sheet">
            Check the sheet
          </button>
        </form>
      </section>
    </Layout>
  );
}
