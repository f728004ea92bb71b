/**
 * The create form's two first choices: what the event is (a structure, or one of the five
 * rulebook events, which choose its rules too) and, in the rules builder, which rules its games
 * start from. Both lists are engine/structures.ts's, said in words; the ids travel only as the
 * options' values.
 */
import { RULEBOOK_EVENTS, RULES_IDS, RULES_NAMES, STRUCTURES } from '../engine/structures.ts';

/** The rulebook events in a sentence each, after their names. */
export const RULEBOOK_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'pitt-boss':
    '16 teams, games to 350, best 2 of 3 games a round within 45 minutes; only first-round losers enter a losers’ bracket, which plays for 3rd place.',
  'blp-2024':
    'double elimination drawn round by round (a team is out after its 2nd loss), one game a match, the final without a reset; with an odd count the highest card drawn gets the bye.',
  'unc-intramural': 'single elimination of one-game matches to 300 with a 30-minute limit; the championship game is played to 500 with 45 minutes.',
  'asher-theatre':
    '64 seeded teams, single elimination; each challenge is best of 3 games to 350, each game with its own 1-hour limit, and the lower seed calls the coin toss for the first dealer.',
  'tournament-spades':
    'players register one by one, partners change every round of 4 hands as winners move up a table, and the highest individual total after the set rounds wins.',
};

/** Where the structure select sends its choice, to show the rules builder of the pair chosen. */
export interface EventChoiceProps {
  /** The format chosen (a structure's or a rulebook event's id). */
  chosen: string;
  /** Where the form's builder is drawn, swapped when the choice changes. */
  builderId: string;
}

/** "What kind of event": the structures first, then the rulebook events that choose both halves at once. */
export function StructureSelect({ chosen, builderId }: EventChoiceProps) {
  return (
    <label>
      What kind of event{' '}
      <select name="format" hx-post="/director/rules-builder" hx-include="closest form" hx-target={`#${builderId}`} hx-swap="outerHTML">
        <optgroup label="A structure, with rules chosen below">
          {STRUCTURES.map((s) => (
            <option value={s.id} selected={s.id === chosen}>
              {s.name}
            </option>
          ))}
        </optgroup>
        <optgroup label="A rulebook’s event, its structure and rules together">
          {RULEBOOK_EVENTS.map((r) => (
            <option value={r.id} selected={r.id === chosen}>
              {r.name}, as its rulebook has it
            </option>
          ))}
        </optgroup>
      </select>
    </label>
  );
}

/** What each structure means, under the choice. */
export function StructureDescriptions() {
  return (
    <ul class="format-defaults">
      {STRUCTURES.map((s) => (
        <li>
          <strong>{s.name}</strong>: {s.description}
        </li>
      ))}
    </ul>
  );
}

/**
 * "The rules its games use": a rulebook event's own first, where the event is one; then a
 * standard game and every preset, by name. Choosing draws the builder again from those rules.
 */
export function RulesSelect({ rules, rulebook, builderId }: { rules: string; rulebook: string | null; builderId: string }) {
  return (
    <label>
      Start from{' '}
      <select name="rules" hx-post="/director/rules-builder" hx-include="closest form" hx-target={`#${builderId}`} hx-swap="outerHTML">
        {rulebook !== null ? (
          <option value="rulebook" selected={rules === 'rulebook'}>
            the {rulebook} rules, as the rulebook has them in each round
          </option>
        ) : null}
        {RULES_IDS.map((id) => (
          <option value={id} selected={id === rules}>
            {RULES_NAMES[id]}
          </option>
        ))}
      </select>
    </label>
  );
}
