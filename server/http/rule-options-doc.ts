/**
 * The rule options' reference, docs/rule-options.md, read once and served as the help page. Its
 * options table is generated from the catalogue (engine/rule-options.ts), as the rules builder's
 * labels and sentences are, so both say the same.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RULE_OPTIONS_DOC = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'rule-options.md'), 'utf8');
