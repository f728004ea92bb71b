/**
 * The create form's rules builder: where the rules start (the chosen format's rulebook, or a
 * standard game), then each rule with the control its entry in the catalogue asks for
 * (engine/rule-options.ts), named in a flyer's words and followed by what it does, with a field
 * of its own for each round that plays another value (the final to 500), what is wrong with a
 * value typed beside its field, and a live preview of the rules sheet. Values are written in
 * the notation the override lines and the reference use (`2D 2S`, `none`), so one reader takes both.
 */
import type { RuleField } from '../engine/rule-options.ts';
import type { RulesSheet } from '../engine/rules-sheet.ts';
import type { ShownControl } from '../engine/rule-controls.ts';
import { RulesSelect } from './event-choices.tsx';
import { RulesSheetBody } from './rules-sheet.tsx';

export const RULES_BUILDER_ID = 'rules-builder';
export const RULES_PREVIEW_ID = 'rules-preview';

export interface RulesBuilderProps {
  /** The event chosen: a structure's or a rulebook event's id, sent back with the form. */
  format: string;
  /** The rules chosen: `rulebook` for a rulebook event's own, `standard`, or a preset. */
  rules: string;
  /** A rulebook event's name, offering its own rules first; null for a structure. */
  rulebook: string | null;
  /** Every control with what its fields hold and what is wrong with them. */
  controls: ShownControl[];
  /** The clocks, asked beside the points a game is won at ("Game to 300 or 30 minutes"): as typed, else the event's own. */
  clocks?: { clockMinutes: string; finalClockMinutes: string | null };
  /** The rules sheet as the form stands, or the sentences saying what is wrong with it. */
  preview: { sheet: RulesSheet; rulebook: string; warnings?: string[] } | { error: string };
}

/** The live preview of the rules sheet, fetched again as the form changes. */
export function RulesPreview({ preview }: { preview: RulesBuilderProps['preview'] }) {
  return (
    <section
      id={RULES_PREVIEW_ID}
      class="rules-preview"
      aria-labelledby="rules-preview-title"
      aria-live="polite"
      hx-post="/director/rules-preview"
      hx-trigger="input delay:400ms from:'closest form', change from:'closest form'"
      hx-include="closest form"
      hx-swap="outerHTML"
    >
      <h3 id="rules-preview-title">The rules sheet as it will read</h3>
      {'error' in preview ? (
        <p class="notice notice--error">{preview.error}</p>
      ) : (
        <>
          {(preview.warnings ?? []).map((w) => (
            <p class="notice notice--error" data-conflict>
              {w}
            </p>
          ))}
          <RulesSheetBody sheet={preview.sheet} rulebook={preview.rulebook} />
        </>
      )}
    </section>
  );
}

const YES_NO = [
  { value: 'true', words: 'yes' },
  { value: 'false', words: 'no' },
];

function Select({
  name,
  value,
  choices,
  problem,
  label,
}: {
  name: string;
  value: string;
  choices: readonly { value: string; words: string }[];
  problem?: string;
  label?: string;
}) {
  return (
    <select
      name={name}
      id={name}
      {...(problem ? { 'aria-invalid': 'true', 'aria-describedby': `${name}-problem` } : {})}
      {...(label ? { 'aria-label': label } : {})}
    >
      {choices.map((c) => (
        <option value={c.value} selected={c.value === value}>
          {c.words}
        </option>
      ))}
    </select>
  );
}

function Text({
  name,
  value,
  hint,
  numeric,
  problem,
  label,
}: {
  name: string;
  value: string;
  hint?: string;
  numeric?: boolean;
  problem?: string;
  label?: string;
}) {
  return (
    <input
      name={name}
      id={name}
      value={value}
      maxlength={120}
      {...(hint ? { placeholder: hint } : {})}
      {...(numeric ? { inputmode: 'numeric', class: 'narrow' } : {})}
      {...(problem ? { 'aria-invalid': 'true', 'aria-describedby': `${name}-problem` } : {})}
      {...(label ? { 'aria-label': label } : {})}
    />
  );
}

/** A value made of a few: allowed or not, then each of its values in a field of its own. */
function Parts({ name, shown, fields, none, label }: { name: string; shown: ShownControl; fields: readonly RuleField[]; none: string; label?: string }) {
  return (
    <span class="rule-parts">
      <Select
        name={name}
        value={shown.values[name]!}
        choices={[
          { value: 'none', words: none },
          { value: 'yes', words: 'yes' },
        ]}
        problem={shown.problems[name]}
        {...(label ? { label } : {})}
      />
      {fields.map((part) => {
        const sub = `${name}.${part.key}`;
        return part.control.kind === 'yes-no' ? (
          <label class="rule-part">
            {part.label} <Select name={sub} value={shown.values[sub]!} choices={YES_NO} />
          </label>
        ) : (
          <label class="rule-part">
            {part.label} <Text name={sub} value={shown.values[sub]!} numeric={part.control.none === null} />
          </label>
        );
      })}
    </span>
  );
}

/** One field of a control: the main one, or a round's own (`label` then names the round). */
function Field({ shown, name, label }: { shown: ShownControl; name: string; label?: string }) {
  const problem = shown.problems[name];
  const value = shown.values[name] ?? '';
  const named = label ? { label } : {};
  if (shown.control.kind === 'compound') return <Select name={name} value={value} choices={shown.control.compound.choices} {...named} />;
  const control = shown.control.option.control;
  switch (control.kind) {
    case 'choice':
      return <Select name={name} value={value} choices={control.choices} problem={problem} {...named} />;
    case 'yes-no':
      return <Select name={name} value={value} choices={YES_NO} problem={problem} {...named} />;
    case 'fields':
      return <Parts name={name} shown={shown} fields={control.fields} none={control.none} {...named} />;
    case 'reasons':
      return (
        <span class="rule-parts" role="group" aria-label={label ?? shown.control.option.label}>
          <input type="hidden" name={name} value="checks" />
          {control.choices.map((c) => (
            <label class="rule-part">
              <input type="checkbox" name={`${name}.${c.value}`} value="on" checked={shown.values[`${name}.${c.value}`] === 'on'} /> {c.words}
            </label>
          ))}
        </span>
      );
    case 'number':
      return <Text name={name} value={value} numeric={control.none === null} hint={control.none === null ? undefined : 'none'} problem={problem} {...named} />;
    default:
      return <Text name={name} value={value} problem={problem} {...named} />;
  }
}

/** " points, or 30 minutes": a clock's minutes beside the points a game is won at. */
function Minutes({ name, value, label }: { name: string; value: string; label: string }) {
  return (
    <span class="rule-part">
      {' '}
      points, or <input name={name} id={name} value={value} maxlength={4} class="narrow" aria-label={label} /> minutes
    </span>
  );
}

/** Every rule with its value, its control and what it does, a field for each round playing its own, and the preview. */
export function RulesBuilder(props: RulesBuilderProps) {
  return (
    <fieldset id={RULES_BUILDER_ID} class="rules-builder">
      <legend>The rules its games use</legend>
      <input type="hidden" name="rulesFormat" value={props.format} />
      <input type="hidden" name="rulesStart" value={props.rules} />
      <RulesSelect rules={props.rules} rulebook={props.rulebook} builderId={RULES_BUILDER_ID} />
      <p class="hint">
        A value set here holds in every round; where a round plays a value of its own, its field follows, and it is changed there. Cards as players write them (
        <code>2D 2S</code> or <code>2♦ 2♠</code>), <code>none</code> for no value.
      </p>
      <div class="rules-builder-options">
        {props.controls.map((shown) => {
          const key = shown.control.kind === 'option' ? shown.control.option.key : shown.control.compound.key;
          const label = shown.control.kind === 'option' ? shown.control.option.label : shown.control.compound.label;
          const help = shown.control.kind === 'option' ? shown.control.option.help : shown.control.compound.help;
          const main = `rule.${key}`;
          const names = [main, ...shown.rounds.map((r) => `${main}@${r.key === 'finalRules' ? 'final' : 'first'}`)];
          // A game is won at a number of points, or by the team ahead when the clock is called: asked together.
          const game = key === 'target' && props.clocks ? props.clocks : null;
          return (
            <div class="rule-option">
              <label for={main}>{game ? 'Game to' : label}</label> <Field shown={shown} name={main} label={game ? label : undefined} />
              {game ? <Minutes name="clockMinutes" value={game.clockMinutes} label="Minutes on a match’s clock (none for no clock)" /> : null}
              {shown.rounds.length > 0 ? <span class="rule-round"> in the other rounds</span> : null}
              {shown.rounds.map((round, i) => (
                <p class="rule-round">
                  <label for={names[i + 1]}>{round.words}</label> <Field shown={shown} name={names[i + 1]!} label={`${label} ${round.words}`} />
                  {game && round.key === 'finalRules' && game.finalClockMinutes !== null ? (
                    <Minutes name="finalClockMinutes" value={game.finalClockMinutes} label="Minutes on the final’s clock (none for no clock)" />
                  ) : null}
                </p>
              ))}
              {game && game.finalClockMinutes !== null && !shown.rounds.some((r) => r.key === 'finalRules') ? (
                <p class="rule-round">
                  <label for="finalClockMinutes">in the final, a clock of</label>{' '}
                  <input
                    name="finalClockMinutes"
                    id="finalClockMinutes"
                    value={game.finalClockMinutes}
                    maxlength={4}
                    class="narrow"
                    placeholder="as the other rounds"
                  />{' '}
                  minutes
                </p>
              ) : null}
              <p class="rule-help">{help}</p>
              {names
                .filter((n) => shown.problems[n])
                .map((n) => (
                  <p class="notice notice--error" id={`${n}-problem`} data-problem={n}>
                    {shown.problems[n]}
                  </p>
                ))}
            </div>
          );
        })}
      </div>
      <RulesPreview preview={props.preview} />
    </fieldset>
  );
}
