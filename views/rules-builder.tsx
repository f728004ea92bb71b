/**
 * The create form's rules builder: the chosen format's rules with their values, each changeable
 * with the control its option's entry in the catalogue asks for (engine/rule-options.ts), named
 * by its label and followed by what it does, and a live preview of the rules sheet. Values are
 * written in the notation the override lines and the reference use (`2D 2S`, `none`,
 * `deficit 100, strict false`), so one reader takes both.
 */
import type { RuleOptions } from '../engine/presets.ts';
import { RULE_OPTIONS, type RuleOption, optionText } from '../engine/rule-options.ts';
import type { RulesSheet } from '../engine/rules-sheet.ts';
import { RulesSheetBody } from './rules-sheet.tsx';

export const RULES_BUILDER_ID = 'rules-builder';
export const RULES_PREVIEW_ID = 'rules-preview';

export interface RulesBuilderProps {
  format: string;
  /** The values the format's rules start from (its main rounds' preset). */
  options: RuleOptions;
  /** The rules sheet as the form stands, or the sentence saying what is wrong with it. */
  preview: { sheet: RulesSheet; rulebook: string } | { error: string };
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
      {'error' in preview ? <p class="notice notice--error">{preview.error}</p> : <RulesSheetBody sheet={preview.sheet} rulebook={preview.rulebook} />}
    </section>
  );
}

/** The control the option's catalogue entry asks for, holding `value`. */
function Control({ option, value }: { option: RuleOption; value: unknown }) {
  const name = `rule.${option.key}`;
  const control = option.control;
  const choices =
    control.kind === 'choice'
      ? control.choices
      : control.kind === 'yes-no'
        ? [
            { value: 'true', words: 'yes' },
            { value: 'false', words: 'no' },
          ]
        : null;
  if (choices) {
    return (
      <select name={name} id={name}>
        {choices.map((c) => (
          <option value={c.value} selected={c.value === String(value)}>
            {c.words}
          </option>
        ))}
      </select>
    );
  }
  const numeric = control.kind === 'number' && control.none === null;
  const hint = control.kind === 'fields' ? { placeholder: control.example } : control.kind === 'number' && control.none !== null ? { placeholder: 'none' } : {};
  return <input name={name} id={name} value={optionText(value)} maxlength={120} {...hint} {...(numeric ? { inputmode: 'numeric', class: 'narrow' } : {})} />;
}

/** Every rule option of the format with its value, its control and what it does, and the preview. */
export function RulesBuilder(props: RulesBuilderProps) {
  return (
    <fieldset id={RULES_BUILDER_ID} class="rules-builder">
      <legend>The rules of {props.format}, each changeable (a change applies to every round)</legend>
      <input type="hidden" name="rulesFormat" value={props.format} />
      <p class="hint">
        Cards as players write them (<code>2D 2S</code> or <code>2♦ 2♠</code>), <code>none</code> for no value. Every option, with its name in the override lines: <a href="/help/rule-options">the rule options</a>.
      </p>
      <div class="rules-builder-options">
        {RULE_OPTIONS.map((option) => (
          <div class="rule-option">
            <label for={`rule.${option.key}`}>{option.label}</label> <Control option={option} value={props.options[option.key as keyof RuleOptions]} />
            <p class="rule-help">{option.help}</p>
          </div>
        ))}
      </div>
      <RulesPreview preview={props.preview} />
    </fieldset>
  );
}
