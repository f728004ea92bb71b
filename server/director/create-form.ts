/**
 * The create form as the director left it: the rules builder with the values typed and the rules
 * sheet they make, and a refused form's fields, to be shown again as typed.
 */
import { type FormatId, formatOptions, formatProblem } from '../../engine/formats.ts';
import { RulesError, resolveRules, rulesConflicts } from '../../engine/rules.ts';
import { rulesSheet } from '../../engine/rules-sheet.ts';
import type { RulesBuilderProps } from '../../views/rules-builder.tsx';
import { FORMAT_NAMES } from '../../views/tournament-home.tsx';
import { CommandError } from '../commands/commands.ts';
import { createChoices } from './create-choices.ts';
import { rulesFromOf, shownControls } from './rules-form.ts';

/** The builder of a format's rules as the form holds them, with the rules sheet they make (or why they make none). */
export function builderProps(format: FormatId, input: Record<string, unknown>): RulesBuilderProps {
  let preview: RulesBuilderProps['preview'];
  try {
    const options = formatOptions(format, createChoices(input, format));
    const problem = formatProblem(options);
    // Choices that contradict each other are explained before they are saved.
    const warnings = [options.rules, options.firstRoundRules, options.finalRules].flatMap((r) => (r === null ? [] : rulesConflicts(resolveRules(r).options)));
    preview = problem ? { error: problem } : { sheet: rulesSheet(format, options), rulebook: FORMAT_NAMES[format], warnings: [...new Set(warnings)] };
  } catch (error) {
    if (!(error instanceof CommandError) && !(error instanceof RulesError)) throw error;
    preview = { error: error.message };
  }
  return { format, rulebook: FORMAT_NAMES[format], from: rulesFromOf(input), controls: shownControls(input, format), preview };
}

/** A refused form's fields as text, to fill them again (a JSON body's values written as the form writes them). */
export function typedText(typed: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(typed).map(([k, v]) => [
      k,
      typeof v === 'string' ? v : v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v),
    ]),
  );
}
