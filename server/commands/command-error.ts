/**
 * A command refused. Every command (a game's entries, registration, the start, rulings) throws
 * it with a sentence naming what was wrong and where; the HTTP API answers 4xx with the
 * sentence, and the CLI exits 2 with it.
 */
/** A command refused: the HTTP API answers 4xx with the message. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 409 = 400,
  ) {
    super(message);
  }
}
