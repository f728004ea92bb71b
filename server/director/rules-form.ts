/**
 * The create form's rules builder, read and shown: the values an event's rounds start from (a
 * rulebook's presets, or a standard game), each option's control as the form holds it, the
 * rounds that play a value of their own (the final to 500 where the rest play to 300), and what
 * is wrong with a value typed, beside its field. Values are read by the option's control (as the
 * override lines are: `2D 2S`, `none`), a choice that sets a few options at once by its choices,
 * and an option made of a few values from one field each.
 */
import type { RulesChoice } from '../../engine/formats.ts';
import { type PresetId, type RuleOptions, STANDARD_RULES } from '../../engine/presets.ts';
import { type RuleOption, compoundValue, optionProblem, optionText, ruleOption } from '../../engine/rule-options.ts';
import {
  BUILDER_CONTROLS,
  type BuilderControl,
  ROUND_KEYS,
  ROUND_NAMES,
  type RoundKey,
  type RulesFrom,
  type ShownControl,
} from '../../engine/rule-controls.ts';
import { resolveRules } from '../../engine/rules.ts';
import { type EventStart, StructureError, eventStart } from '../../engine/structures.ts';
import { CommandError } from '../commands/command-error.ts';
import { overrideValue } from './override-lines.ts';

/** The rules the form chose: `rules` (a standard game, a preset, or a rulebook event's own), or the older `rulesFrom`. */
const rulesChoiceOf = (input: Record<string, unknown>): unknown =>
  input.rules !== undefined && input.rules !== '' ? input.rules : input.rulesFrom === 'standard' ? 'standard' : undefined;

/** The event a form's `format` and `rules` choose; a choice that is none is refused in words. */
export function startOf(format: unknown, input: Record<string, unknown>): EventStart {
  try {
    return eventStart(format, rulesChoiceOf(input));
  } catch (error) {
    if (error instanceof StructureError) throw new CommandError(error.message);
    throw error;
  }
}

/**
 * Where the builder's values start: the rounds' own presets, or a standard game put over a
 * rulebook event's presets (which its rounds still record).
 */
export const rulesFromOf = (start: EventStart): RulesFrom => (start.rules === 'standard' && start.chosen === start.format ? 'standard' : 'rulebook');

/** A round of the format that plays rules: the preset it records, and the values it starts from. */
export interface StartingRound {
  key: RoundKey;
  preset: PresetId;
  start: RuleOptions;
}

export function startingRounds(start: EventStart): StartingRound[] {
  const f = start.options;
  const from = rulesFromOf(start);
  return ROUND_KEYS.filter((k) => f[k] !== null).map((key) => {
    const rules = resolveRules(f[key] as RulesChoice);
    return { key, preset: rules.preset, start: from === 'standard' ? { ...STANDARD_RULES, ...start.game } : rules.options };
  });
}

/** Whether the builder the form sent was drawn for the event and rules chosen now. */
const shownFor = (input: Record<string, unknown>, start: EventStart) =>
  input.rulesFormat === start.chosen && (input.rulesStart === undefined || input.rulesStart === start.rules);

/** The form field of an option (or a compound choice) in a round. */
export const fieldName = (key: string, round: RoundKey = 'rules') => (round === 'rules' ? `rule.${key}` : `rule.${key}@${ROUND_NAMES[round].suffix}`);

const controlKey = (c: BuilderControl) => (c.kind === 'option' ? c.option.key : c.compound.key);
const controlOptions = (c: BuilderControl): (keyof RuleOptions)[] => (c.kind === 'option' ? [c.option.key] : [...c.compound.options]);

/** The rounds with a value of their own for a control: where a round starts otherwise than the main one. */
export function ownRounds(rounds: readonly StartingRound[], control: BuilderControl): RoundKey[] {
  const main = rounds[0]!.start;
  const keys = controlOptions(control);
  return rounds
    .slice(1)
    .filter((r) => keys.some((k) => JSON.stringify(r.start[k]) !== JSON.stringify(main[k])))
    .map((r) => r.key);
}

/** An option's value as sent in a field, or undefined when the form did not send it. */
function sentOption(input: Record<string, unknown>, option: RuleOption, round: RoundKey, start: RuleOptions): unknown {
  const name = fieldName(option.key, round);
  const text = input[name];
  if (typeof text !== 'string') return undefined;
  if (text.length > 200) throw new CommandError(`${option.label}: at most 200 characters, not ${text.length}`);
  if (option.control.kind === 'reasons' && text === 'checks') {
    // A box a reason, ticked or not: the round's own reasons keep their order, others follow.
    const ticked = (value: string) => typeof input[`${name}.${value}`] === 'string' && input[`${name}.${value}`] !== '';
    const known = option.control.choices.map((c) => c.value);
    const own = (start[option.key] as string[]).filter((r) => !known.includes(r) || ticked(r));
    return [...own, ...known.filter((r) => ticked(r) && !own.includes(r))];
  }
  if (option.control.kind === 'fields') {
    if (/^none$/i.test(text.trim())) return null;
    if (text === 'yes') {
      // Each of its values from a field of its own; one left empty is missing.
      const parts: Record<string, unknown> = {};
      for (const part of option.control.fields) {
        const value = input[`${name}.${part.key}`];
        if (typeof value === 'string' && value.trim() !== '') parts[part.key] = overrideValue('', value.trim());
      }
      return parts;
    }
  }
  return overrideValue(option.key, text.trim());
}

/** The values a control's fields hold in a round: each of its options as sent, or undefined. */
function sentValues(
  input: Record<string, unknown>,
  control: BuilderControl,
  round: RoundKey,
  start: RuleOptions,
): Partial<Record<keyof RuleOptions, unknown>> | undefined {
  if (control.kind === 'option') {
    const value = sentOption(input, control.option, round, start);
    return value === undefined ? undefined : { [control.option.key]: value };
  }
  const text = input[fieldName(control.compound.key, round)];
  if (typeof text !== 'string') return undefined;
  const choice = control.compound.choices.find((c) => c.value === text);
  if (!choice) throw new CommandError(`${control.compound.label}: choose one of ${control.compound.choices.map((c) => c.words).join('; ')}`);
  return choice.set;
}

/**
 * The builder's values in each round, as overrides of the preset each round records: a value
 * set once holds in every round but the rounds whose own field says otherwise. Null when the
 * form has no builder. The builder names the format it shows (`rulesFormat`): values shown for
 * another format would be that format's, so they are refused, not compared.
 */
export function builtRounds(input: Record<string, unknown>, format: string): Partial<Record<RoundKey, Record<string, unknown>>> | null {
  const shown = input.rulesFormat;
  if (shown === undefined || shown === '') return null;
  const start = startOf(format, input);
  if (!shownFor(input, start)) {
    throw new CommandError(`the rules builder shows the rules of another choice than ${start.name}; show the rules of ${start.name} before changing them`);
  }
  const rounds = startingRounds(start);
  const built: Partial<Record<RoundKey, Record<string, unknown>>> = {};
  const main = Object.fromEntries(BUILDER_CONTROLS.map((c) => [controlKey(c), sentValues(input, c, 'rules', rounds[0]!.start)]));
  for (const round of rounds) {
    const values: Record<string, unknown> = { ...round.start };
    for (const control of BUILDER_CONTROLS) {
      const own = round.key !== 'rules' && ownRounds(rounds, control).includes(round.key);
      Object.assign(values, (own ? sentValues(input, control, round.key, round.start) : main[controlKey(control)]) ?? {});
    }
    // What the round records: the options that differ from its preset's own.
    const preset = resolveRules(round.preset).options as unknown as Record<string, unknown>;
    built[round.key] = Object.fromEntries(Object.entries(values).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(preset[k])));
  }
  return built;
}

/** The builder's controls as the form shows them: as typed where they were, else as the rounds start. */
export function shownControls(input: Record<string, unknown>, start: EventStart): ShownControl[] {
  const typed = shownFor(input, start);
  const rounds = startingRounds(start);
  return BUILDER_CONTROLS.map((control) => {
    const own = ownRounds(rounds, control);
    const values: Record<string, string> = {};
    const problems: Record<string, string> = {};
    for (const round of rounds.filter((r) => r.key === 'rules' || own.includes(r.key))) {
      const name = fieldName(controlKey(control), round.key);
      if (control.kind === 'compound') {
        values[name] = (typed && typeof input[name] === 'string' ? (input[name] as string) : compoundValue(control.compound, round.start)) ?? '';
        continue;
      }
      const option = control.option;
      const start = round.start[option.key];
      const text = typed && typeof input[name] === 'string' ? (input[name] as string) : null;
      if (option.control.kind === 'fields') {
        const on = text !== null ? text === 'yes' || (text.trim() !== '' && !/^none$/i.test(text.trim())) : start !== null;
        values[name] = on ? 'yes' : 'none';
        const example = start ?? Object.fromEntries(option.control.example.split(',').map((p) => p.trim().split(/\s+/) as [string, string]));
        for (const part of option.control.fields) {
          const sub = `${name}.${part.key}`;
          values[sub] = typed && typeof input[sub] === 'string' ? (input[sub] as string) : optionText((example as Record<string, unknown>)[part.key]);
        }
      } else if (option.control.kind === 'reasons') {
        // A box a reason, ticked as typed, else as the round starts.
        values[name] = 'checks';
        const held = text !== null ? (sentOption(input, option, round.key, round.start) as string[]) : (start as string[]);
        for (const c of option.control.choices) values[`${name}.${c.value}`] = held.includes(c.value) ? 'on' : '';
      } else values[name] = text ?? optionText(start);
      if (text === null) continue;
      try {
        const value = sentOption(input, option, round.key, round.start);
        const problem = value === undefined ? null : optionProblem(option, value, false);
        if (problem) problems[name] = problem;
      } catch (error) {
        if (!(error instanceof CommandError)) throw error;
        problems[name] = error.message;
      }
    }
    return { control, values, rounds: own.map((key) => ({ key, words: ROUND_NAMES[key as Exclude<RoundKey, 'rules'>].words })), problems };
  });
}

/** The option named in a field, for a refusal that points at it. */
export const optionOfField = (name: string) => ruleOption(name.replace(/^rule\./, '').replace(/[@.].*$/, ''));
