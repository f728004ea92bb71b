/**
 * The create form as the director left it: the rules builder with the values typed and the rules
 * sheet they make, and a refused form's fields, to be shown again as typed.
 */
import { formatProblem } from '../../engine/formats.ts';
import { RulesError, resolveRules, rulesConflicts } from '../../engine/rules.ts';
import { rulesSheet } from '../../engine/rules-sheet.ts';
import { type EventStart, STRUCTURES, rulebookName } from '../../engine/structures.ts';
import type { RulesBuilderProps } from '../../views/rules-builder.tsx';
import { CommandError } from '../commands/command-error.ts';
import { createChoices } from './create-choices.ts';
import { shownControls, startOf } from './rules-form.ts';

/** The event a form chose, or (a choice that is none, as a refused form may hold) the nearest one that is. */
function shownStart(format: unknown, input: Record<string, unknown>): EventStart {
  for (const [f, i] of [
    [format, input],
    [format, {}],
    [STRUCTURES[0]!.id, {}],
  ] as const) {
    try {
      return startOf(f, i);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
    }
  }
  throw new Error('no structure to start an event from');
}

/** The builder of an event's rules as the form holds them, with the rules sheet they make (or why they make none). */
export function builderProps(format: unknown, input: Record<string, unknown>): RulesBuilderProps {
  const start = shownStart(format, input);
  let preview: RulesBuilderProps['preview'];
  try {
    const { options } = createChoices(input, format);
    const problem = formatProblem(options);
    // Choices that contradict each other are explained before they are saved.
    const warnings = [options.rules, options.firstRoundRules, options.finalRules].flatMap((r) => (r === null ? [] : rulesConflicts(resolveRules(r).options)));
    preview = problem
      ? { error: problem }
      : { sheet: rulesSheet(start.format, options), rulebook: rulebookName(start.format, options), warnings: [...new Set(warnings)] };
  } catch (error) {
    if (!(error instanceof CommandError) && !(error instanceof RulesError)) throw error;
    preview = { error: error.message };
  }
  return {
    format: start.chosen,
    rules: start.rules,
    rulebook: start.chosen === start.format ? start.name : null,
    controls: shownControls(input, start),
    clocks: {
      clockMinutes: minutesText(input.clockMinutes, start.options.clockMinutes),
      // Progressive tables have no final.
      finalClockMinutes:
        start.options.elimination === 'progressive'
          ? null
          : // Empty, the final keeps the other rounds' clock; a final with a clock of its own shows it.
            minutesText(
              input.finalClockMinutes,
              start.options.finalClockMinutes === start.options.clockMinutes ? undefined : (start.options.finalClockMinutes ?? undefined),
            ),
    },
    preview,
  };
}

/** A clock's minutes as the form shows them: as typed, else the event's own (`none` for no clock). */
const minutesText = (typed: unknown, own: number | null | undefined): string =>
  typeof typed === 'string' || typeof typed === 'number' ? String(typed) : own === undefined ? '' : own === null ? 'none' : String(own);

/** A refused form's fields as text, to fill them again (a JSON body's values written as the form writes them). */
export function typedText(typed: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(typed).map(([k, v]) => [
      k,
      typeof v === 'string' ? v : v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v),
    ]),
  );
}
