/**
 * The create form's rules builder: the chosen format's rules with their values, each changeable
 * with a control fit for it, a sentence on what it does (from the rule options' reference), and
 * a live preview of the rules sheet. Values are written in the notation the override lines and
 * the reference use (`2D 2S`, `none`, `deficit 100, strict false`), so one reader takes both.
 */
import type { RuleOptions } from '../engine/presets.ts';
import type { RulesSheet } from '../engine/rules-sheet.ts';
import { RulesSheetBody } from './rules-sheet.tsx';

export const RULES_BUILDER_ID = 'rules-builder';
export const RULES_PREVIEW_ID = 'rules-preview';

const CHOICES: Partial<Record<keyof RuleOptions, readonly [string, string][]>> = {
  biddingOrder: [['clockwise', 'clockwise from the dealer’s left'], ['non-dealing-team-first', 'the non-dealing team first']],
  nilTricks: [['overtricks', 'count as overtricks'], ['nothing', 'score nothing']],
  renegePenalty: [['transfer', 'tricks go to the other team'], ['unc', 'tricks are lost (UNC)'], ['asher', 'credited now, owed from the next hand (Asher)'], ['pitt-boss', 'the side losing the claim pays (Pitt Boss)']],
  firstDealer: [['high-card', 'a draw for high card'], ['coin-toss', 'a coin toss'], ['random', 'at random']],
  afterMisdeal: [['same-dealer', 'the same dealer deals again'], ['next-dealer', 'the deal passes on']],
};

/** An option's value in the notation the reference's table and the override lines use. */
export function optionText(value: unknown): string {
  if (value === null) return 'none';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(' ');
  if (typeof value === 'object') return Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k} ${v === null ? 'null' : String(v)}`).join(', ');
  return String(value);
}

export interface RulesBuilderProps {
  format: string;
  /** The values the format's rules start from (its main rounds' preset). */
  options: RuleOptions;
  /** What each option does, by name, from the rule options' reference. */
  descriptions: Readonly<Record<string, string>>;
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

/** Every rule option of the format with its value, its control and what it does, and the preview. */
export function RulesBuilder(props: RulesBuilderProps) {
  const control = (key: keyof RuleOptions) => {
    const value = props.options[key];
    const name = `rule.${key}`;
    const choices = CHOICES[key];
    if (choices) {
      return (
        <select name={name} id={name}>
          {choices.map(([v, words]) => (
            <option value={v} selected={v === value}>
              {words}
            </option>
          ))}
        </select>
      );
    }
    if (typeof value === 'boolean') {
      return (
        <select name={name} id={name}>
          <option value="true" selected={value}>
            yes
          </option>
          <option value="false" selected={!value}>
            no
          </option>
        </select>
      );
    }
    const numeric = typeof value === 'number' && ['teamMinimum', 'teamMaximum', 'blindNilDeficit', 'bagPenalty', 'renegeTricks', 'renegePoints'].includes(key);
    return <input name={name} id={name} value={optionText(value)} maxlength={120} {...(numeric ? { inputmode: 'numeric', class: 'narrow' } : {})} />;
  };
  return (
    <fieldset id={RULES_BUILDER_ID} class="rules-builder">
      <legend>The rules of {props.format}, each changeable (a change applies to every round)</legend>
      <input type="hidden" name="rulesFormat" value={props.format} />
      <p class="hint">
        Cards as players write them (<code>2D 2S</code> or <code>2♦ 2♠</code>), <code>none</code> for no value. What each option does: <a href="/help/rule-options">the rule options</a>.
      </p>
      <div class="rules-builder-options">
        {(Object.keys(props.options) as (keyof RuleOptions)[]).map((key) => (
          <div class="rule-option">
            <label for={`rule.${key}`}>
              <code>{key}</code>
            </label>{' '}
            {control(key)}
            <p class="rule-help">{props.descriptions[key] ?? ''}</p>
          </div>
        ))}
      </div>
      <RulesPreview preview={props.preview} />
    </fieldset>
  );
}
