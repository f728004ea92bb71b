/**
 * A second-chance bracket on the standings page, apart from the main bracket's standings: who
 * plays in it and who is still in while it plays, its own places and prizes once it is over.
 */
import type { SecondChance } from '../events/second-chance.ts';
import { ordinal } from '../events/standings.ts';
import { listed } from '../events/tournament-state.ts';

export const SECOND_CHANCE_ID = 'second-chance';

/** The second chance's own standings, under the main ones. */
export function SecondChancePanel({ chance, names }: { chance: SecondChance; names: Readonly<Record<string, string>> }) {
  const name = (id: string) => names[id] ?? id;
  return (
    <section id={SECOND_CHANCE_ID} class="second-chance" aria-labelledby="second-chance-title">
      <h2 id="second-chance-title">Second chance</h2>
      <p>The first round’s losers play a knockout of their own, for its own places and prizes.</p>
      {chance.places.length > 0 ? (
        <ol class="second-chance-places">
          {chance.places.map((p) => (
            <li data-place={p.place}>
              <strong>{p.teams.length > 1 ? `${ordinal(p.place)}, shared` : ordinal(p.place)}:</strong> {listed(p.teams.map(name))}
              {p.prize ? ` · ${p.prize}` : ''}
            </li>
          ))}
        </ol>
      ) : chance.teams.length === 0 ? (
        <p class="muted">Its teams are known once the first round is decided.</p>
      ) : (
        <p>
          Still in: {listed(chance.stillIn.map(name))}
          {chance.teams.length > chance.stillIn.length ? `; out of it: ${listed(chance.teams.filter((t) => !chance.stillIn.includes(t)).map(name))}` : ''}.
        </p>
      )}
    </section>
  );
}
