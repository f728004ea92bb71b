/**
 * What an id or a name that comes in may hold, checked the one way for every way in: a form or
 * the API, a pasted list, a paper record, a ledger file, an account made at the command line.
 * An id keys read models and addresses, so it is plain letters, digits and dashes and never a
 * word every JavaScript object already answers to (`__proto__`, `constructor`, `prototype`). A
 * name is shown on pages, phones, TVs and in CSV files, so it holds only characters that can be
 * seen: no control characters, nothing that turns the text around or hides between letters.
 */

/** An id a director may give a tournament, team or player: letters, digits and dashes, at most 60. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,59}$/;

// Every name a plain object answers to without holding it (`constructor`, `toString`,
// `__proto__`…), and `prototype`, which every function answers to.
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** Whether `text` is a word every object answers to, so it cannot key a lookup by itself. */
export function isPrototypeName(text: string): boolean {
  return PROTOTYPE_NAMES.has(text);
}

/** `text` cut to `max` characters for a refusal to quote, with what cannot be seen left out. */
export function quoted(text: string, max = 24): string {
  const seen = text.replace(UNSEEN_ALL, '');
  return seen.length <= max ? seen : `${seen.slice(0, max)}…`;
}

/**
 * Why `id` cannot be `what` ("a team id"), as a sentence, or null when it can: letters, digits
 * and dashes, starting with a letter or digit, at most `max` characters, and no word every
 * object already answers to.
 */
export function idProblem(id: string, what: string, max = 60): string | null {
  if (isPrototypeName(id)) return `'${id}' cannot be ${what}: the server keeps that word for itself; choose other letters, digits and dashes`;
  if (id.length > max) return `the ${what.replace(/^an? /, '')} '${quoted(id)}' is ${id.length} characters long; ${what} is at most ${max}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(id)) return `${what} is letters, digits and dashes, not '${quoted(id)}'`;
  return null;
}

// Controls (C0 with NUL, BEL, tab, CR and LF; DEL; C1), the zero-width characters and the marks
// that set the direction of text (U+200B–U+200F), the embeddings and overrides (U+202A–U+202E),
// the invisible operators and isolates (U+2060–U+206F), the Arabic letter mark, the Mongolian
// vowel separator, the byte order mark and the interlinear annotation marks.
const UNSEEN = /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/u;
const UNSEEN_ALL = new RegExp(UNSEEN.source, 'gu');
// What shows as nothing at all even where it is allowed between letters: spaces, format
// characters, the soft hyphen, the combining grapheme joiner, and the fillers and blank
// patterns that fonts draw empty.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each listed character is blank on its own and matched one by one
const BLANK = /^[\s\p{Cf}\p{Z}\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0]*$/u;

/** What kind of character `ch` is, in people's words. */
function kindOf(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (code === 0) return 'a null character';
  if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return 'a line break';
  if (code === 0x09) return 'a tab';
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'a control character';
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0x200e || code === 0x200f || code === 0x061c) {
    return 'a character that changes the direction of the text';
  }
  return 'a character that cannot be seen';
}

/** `what` as a sentence's subject; none for a problem said after its field's name ("line 3, name: holds…"). */
const lead = (what: string) => (what ? `${what} ` : '');

/**
 * Why `name` cannot be `what` ("the team name", "player 2's name"), as a sentence, or null when
 * it can: a name holds no control character, nothing invisible and nothing that turns the text
 * around, and at least one character that can be seen. Empty is left to the caller (some names
 * may be left out). With `what` empty the sentence starts at its verb, for a caller that names
 * the field itself.
 */
export function nameProblem(name: string, what: string): string | null {
  const found = UNSEEN.exec(name);
  if (found) {
    const at = [...name.slice(0, found.index)].length + 1;
    const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return `${lead(what)}holds ${kindOf(found[0])} (U+${code}) at character ${at}; a name is written with letters, digits, spaces and punctuation that can be seen`;
  }
  if (name !== '' && BLANK.test(name)) return `${lead(what)}has no character that can be seen; write the name in letters or digits`;
  return null;
}

/** The longest name an entrant (a team, a player) may have, in characters. */
export const ENTRANT_NAME_MAX = 60;

/** A name as it is stored and compared: Unicode NFKC, each run of spaces one space, trimmed. */
export function normalName(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Zs}+/gu, ' ')
    .trim();
}

/** What two names that read alike share: the normal name in lower case. */
export function nameKey(text: string): string {
  return normalName(text).toLowerCase();
}

/**
 * Why `name` cannot be an entrant's `what` ("the team name", "player 2’s name"), as a sentence,
 * or null when it can: what `nameProblem` refuses, a name with no letter or digit, and one
 * longer than ENTRANT_NAME_MAX once its spaces are collapsed. Refused, never cut: a name cut
 * short is not the name anyone typed.
 */
export function entrantNameProblem(name: string, what: string): string | null {
  const problem = nameProblem(name.normalize('NFKC'), what);
  if (problem) return problem;
  const normal = normalName(name);
  const length = [...normal].length;
  if (length > ENTRANT_NAME_MAX)
    return `${lead(what)}is ${length.toLocaleString('en-US')} characters long; a name is at most ${ENTRANT_NAME_MAX}, so shorten it`;
  if (normal !== '' && !/[\p{L}\p{N}]/u.test(normal)) return `${lead(what)}has no letter or digit; write the name in letters or digits`;
  return null;
}
