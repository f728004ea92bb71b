/**
 * The table phone's blind bid before the deal, where the rules have one declared then (Pitt
 * Boss): the team far enough behind says its two blind bids, and the deal is recorded with
 * them. The rule is the engine's (engine/blind-declaration.ts); this only words it.
 */
import { SEAT_NAMES, type Seat } from '../engine/cards.ts';
import { PostForm } from './entry-forms.tsx';

/** A team that may declare a blind bid before the next deal. */
export interface BlindChance {
  /** The team's name, and its two seats. */
  name: string;
  seats: readonly [Seat, Seat];
  /** Points behind, and the least the two blind bids may add up to. */
  behind: number;
  minimum: number;
}

export function BlindBeforeDeal({ chance, dealer, form }: { chance: BlindChance; dealer: Seat; form: { action: string; target: string; csrf: string } }) {
  const [a, b] = chance.seats;
  return (
    <PostForm {...form} entry="deal" class="blind-declaration">
      <h3>Blind bid, before the cards are dealt</h3>
      <p class="hint">
        {chance.name} is {chance.behind} points behind, so it may bid blind now, before {SEAT_NAMES[dealer]} deals: the two bids together at least{' '}
        {chance.minimum}, doubled if made. Once the cards are dealt, a blind bid may not be made.
      </p>
      <input type="hidden" name="dealer" value={dealer} />
      <input type="hidden" name="shuffle" value="table" />
      <label>
        {SEAT_NAMES[a]} bids blind <input name={`blind${a}`} class="narrow" type="number" inputmode="numeric" min={0} max={13} required />
      </label>{' '}
      <label>
        {SEAT_NAMES[b]} bids blind <input name={`blind${b}`} class="narrow" type="number" inputmode="numeric" min={0} max={13} required />
      </label>
      <button type="submit" class="big-button big-button--quiet" data-action="deal-blind">
        Record the blind bid, then {SEAT_NAMES[dealer]} deals
      </button>
    </PostForm>
  );
}
