/**
 * A command's arguments, read with node's `util.parseArgs` (strict) against the options its
 * entry in the command table declares. Whatever is wrong is refused in one line naming it: an
 * unknown option, an option without its value (or with an empty one), a switch given a value,
 * a value given twice, or an argument where the command takes none.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './io.ts';

export interface OptionSpec {
  /** 'string' takes a value (`--db FILE`, `--db=FILE`); 'boolean' is a switch (`--force`). */
  type: 'string' | 'boolean';
  /** What the value is, as the help shows it: FILE, MS, POSITION:HASH. */
  value?: string;
  /** What the option does, in a few words. */
  help: string;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** The options given, by name: text for an option that takes a value, true for a switch given. */
export type OptionValues<O extends OptionSpecs> = {
  [K in keyof O]?: O[K]['type'] extends 'string' ? string : boolean;
};

export interface CommandArguments<O extends OptionSpecs> {
  values: OptionValues<O>;
  positionals: string[];
  /** `usage: spades …`, for a command's own refusals of its arguments. */
  usage: string;
}

export interface ArgumentSpec<O extends OptionSpecs> {
  name: string;
  usage: string;
  options: O;
  /** Whether the command takes arguments besides its options (a file, a name). */
  positionals: boolean;
}

/** Reads `args` for the command `spec`, or throws a UsageError naming what is wrong. */
export function parseCommandArguments<O extends OptionSpecs>(spec: ArgumentSpec<O>, args: readonly string[]): CommandArguments<O> {
  const options = Object.fromEntries(Object.entries(spec.options).map(([name, option]) => [name, { type: option.type }]));
  const refuse = (problem: string) => new UsageError(`spades ${spec.name}: ${problem}`);
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: spec.positionals, tokens: true });
  } catch (error) {
    if (!String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_')) throw error;
    throw refuse(explain(spec, args) ?? (error as Error).message.split('\n')[0]!);
  }
  // A switch given twice says the same thing twice; a value given twice leaves which one unsaid.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || spec.options[token.name]!.type !== 'string') continue;
    if (seen.has(token.name)) throw refuse(`--${token.name} given twice`);
    seen.add(token.name);
    if (token.value === '') throw refuse(`--${token.name} needs a value`);
  }
  return { values: parsed.values as OptionValues<O>, positionals: parsed.positionals, usage: `usage: spades ${spec.usage}` };
}

/**
 * What a strict read refused, in the command's words: the arguments are read again leniently
 * and the first one at fault is named.
 */
function explain(spec: ArgumentSpec<OptionSpecs>, args: readonly string[]): string | null {
  const options = Object.fromEntries(Object.entries(spec.options).map(([name, option]) => [name, { type: option.type }]));
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const known = Object.keys(spec.options);
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!spec.positionals) return `unexpected argument '${token.value}'; usage: spades ${spec.usage}`;
      continue;
    }
    if (token.kind !== 'option') continue;
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name]! : undefined;
    if (!option) {
      const list = known.length === 0 ? 'it takes none' : `the options are ${known.map((k) => `--${k}`).join(', ')}`;
      return `unknown option ${token.rawName}; ${list}`;
    }
    if (option.type === 'boolean' && token.value !== undefined) return `--${token.name} takes no value`;
    // Strictly read, a value that looks like an option is a value forgotten: `--db --force`.
    if (option.type === 'string' && (token.value === undefined || (!token.inlineValue && token.value.length > 1 && token.value.startsWith('-')))) {
      return `--${token.name} needs a value`;
    }
  }
  return null;
}
