/**
 * The override lines of the create form's advanced box ("bagLimit = 6", one a line) and the
 * notation they, the builder's fields and the reference write values in.
 */
import { parseCardList } from '../../engine/cards.ts';
import { ruleOption } from '../../engine/rule-options.ts';
import { CommandError } from '../commands/command-error.ts';

/**
 * Rule overrides from the form's lines ("bagLimit = 6", values as JSON, bare words as text) or a
 * JSON object. Names and values are checked later by resolveRules, against the preset.
 */
export function ruleOverrides(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === '') return {};
  if (typeof raw === 'object' && !Array.isArray(raw)) return { ...(raw as Record<string, unknown>) };
  if (typeof raw !== 'string') throw new CommandError('rule overrides are lines of option = value (such as bagLimit = 6), or a JSON object');
  const overrides: Record<string, unknown> = {};
  raw.split(/\r?\n/).forEach((line, i) => {
    const text = line.trim();
    if (text === '' || text.startsWith('#')) return;
    const at = text.indexOf('=');
    const key = at > 0 ? text.slice(0, at).trim() : '';
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw new CommandError(`rule overrides, line ${i + 1}: '${text}' is not option = value (such as bagLimit = 6)`);
    if (key === 'preset') throw new CommandError(`rule overrides, line ${i + 1}: the preset is the format's; override its options one by one`);
    if (Object.hasOwn(overrides, key)) throw new CommandError(`rule overrides, line ${i + 1}: ${key} is given twice`);
    overrides[key] = overrideValue(key, text.slice(at + 1).trim());
  });
  return overrides;
}

/**
 * One override's value as written: JSON, or the notation the options table of the help page
 * shows: cards as players write them (`2D 2S`, `2♦ 2♠`), misdeal reasons as words
 * (`card-flipped wrong-card-count`), an object's fields as `deficit 100, strict false`.
 * Anything else stays text, for resolveRules to refuse with the option's own sentence.
 */
export function overrideValue(key: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: read by the control the option is asked with.
  }
  const kind = ruleOption(key)?.control.kind;
  if (/^none$/i.test(text) && kind !== 'cards' && kind !== 'reasons') return null;
  if (kind === 'cards') return parseCardList(text) ?? text;
  if (kind === 'reasons') return /^none$/i.test(text) ? [] : text.split(/[\s,]+/).filter((w) => w !== '');
  if (kind === 'yes-no' && /^(yes|no)$/i.test(text)) return /^yes$/i.test(text);
  if (kind === 'fields') {
    const entries = text.split(',').map((part) => part.trim().split(/\s+/));
    if (entries.every((e) => e.length === 2 && /^[A-Za-z]+$/.test(e[0]!))) {
      return Object.fromEntries(entries.map(([name, value]) => [name!, overrideValue('', value!)]));
    }
  }
  return text;
}
