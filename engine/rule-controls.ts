/**
 * The create form's rules builder as data: its controls (an option, or a choice setting a few
 * options at once, in place of its options), the rounds of a format that may play values of
 * their own, and what a control shows. The form reads and draws these (server/director/rules-form.ts,
 * views/rules-builder.tsx).
 */
import { COMPOUND_CHOICES, type CompoundChoice, RULE_OPTIONS, type RuleOption } from './rule-options.ts';

/** The format's fields that hold a round's rules. */
export type RoundKey = 'rules' | 'firstRoundRules' | 'finalRules';
export const ROUND_KEYS: readonly RoundKey[] = ['rules', 'firstRoundRules', 'finalRules'];
/** How a round with values of its own is named on the form, and its fields' suffix. */
export const ROUND_NAMES: Record<Exclude<RoundKey, 'rules'>, { words: string; suffix: string }> = {
  firstRoundRules: { words: 'in round 1', suffix: 'first' },
  finalRules: { words: 'in the final', suffix: 'final' },
};

/** Where an event's rules start: its rulebook's presets, or a standard game in every round. */
export type RulesFrom = 'rulebook' | 'standard';

/** A control of the builder: an option, or a choice setting a few options at once. */
export type BuilderControl = { kind: 'option'; option: RuleOption } | { kind: 'compound'; compound: CompoundChoice };

/** The builder's controls in the catalogue's order, a compound choice in place of its options. */
export const BUILDER_CONTROLS: readonly BuilderControl[] = RULE_OPTIONS.flatMap((option): BuilderControl[] => {
  const compound = COMPOUND_CHOICES.find((c) => c.options.includes(option.key));
  if (!compound) return [{ kind: 'option', option }];
  return compound.options[0] === option.key ? [{ kind: 'compound', compound }] : [];
});

/** One control as the form shows it: the text (or choice) of each field, and what is wrong with it. */
export interface ShownControl {
  control: BuilderControl;
  /** Field name → what it holds. */
  values: Record<string, string>;
  /** The rounds with a field of their own, beside the main one. */
  rounds: { key: RoundKey; words: string }[];
  /** Field name → what is wrong with the value typed there. */
  problems: Record<string, string>;
}
