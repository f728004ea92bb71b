/**
 * A late ruling is a reopening, shown first: any judge's command (a ruling given or withdrawn,
 * a score or result correction, a disqualification) whose events would take back or change a
 * decided match is refused unless it is asked as a reopening, and the refusal says what it would
 * change. What it would change is worked out by folding its events over the current models
 * (events/reopening.ts), so the refusal, the console's preview and the fold agree.
 */
import { type Reopening, reopeningOf, reopeningText } from '../../events/reopening.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { CommandError } from './command-error.ts';

/** Whether a request asks for a reopening: `reopen` sent as yes (a form) or true (JSON). */
export function asksReopening(input: Record<string, unknown>): boolean {
  return input.reopen === 'yes' || input.reopen === true;
}

/** What the decision would reopen, or null when it changes no decided match. */
export function reopeningBy(models: ReadModels, decision: Decision | readonly Decision[], at: string): Reopening | null {
  const events = [decision].flat().flatMap((d) => d.events);
  return reopeningOf(models, events, at);
}

/**
 * Refuses (409) a decision that would change a decided match unless it is asked as a reopening;
 * the refusal says which match reopens, which games are voided, which matches are played again
 * and which teams move. Gives back what it reopens (null for an ordinary ruling).
 */
export function checkReopening(models: ReadModels, decision: Decision | readonly Decision[], reopen: boolean, at: string): Reopening | null {
  const reopening = reopeningBy(models, decision, at);
  if (reopening && !reopen) {
    throw new CommandError(
      `This would change a decided match: ${reopeningText(reopening)} It is given only as a reopening, after seeing what it changes: ask again as a reopening to give it.`,
      409,
    );
  }
  return reopening;
}
