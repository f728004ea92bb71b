/**
 * The columns of a pasted list of entrants as a director reads them: a problem is said by its
 * line and the column's words ("line 5, player 2: is missing"), never by the key it is kept under.
 */

/** A column's words: "player 2" for player2, "date registered" for registeredOn; none for the line as a whole. */
export function fieldWords(field: string): string {
  return (
    (
      { name: 'name', player1: 'player 1', player2: 'player 2', registeredOn: 'date registered', category: 'prize category', line: '' } as Record<
        string,
        string
      >
    )[field] ?? field
  );
}

/** A problem in words, for a refusal: `line 3, player 2: is missing: …`. */
export function problemText(p: { line: number; field: string; problem: string }): string {
  const field = fieldWords(p.field);
  return `line ${p.line}${field ? `, ${field}` : ''}: ${p.problem}`;
}
