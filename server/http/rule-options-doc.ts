/**
 * The rule options' reference, docs/rule-options.md, read once: served as the help page and the
 * source of the rules builder's sentence on each option, so both say what the reference says.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RULE_OPTIONS_DOC = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'rule-options.md'), 'utf8');

/** What each option does, by name, from the reference's options table. */
export const RULE_OPTION_DESCRIPTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  [...RULE_OPTIONS_DOC.matchAll(/^\| `([A-Za-z]+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]),
);
