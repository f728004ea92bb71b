/** What a `spades` command reads and writes, and how it refuses its input. */

/** A refusal of the command's input: printed as one line, exit status 2. */
export class UsageError extends Error {}

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: () => Promise<string>;
}
