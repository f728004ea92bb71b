/**
 * The waiting line of a match held by a claim, as every page draws it: the words, with how long it
 * has waited in a span static/clock.js keeps ticking from the claim's recorded time.
 */
import type { WaitingParts } from '../events/ruling-wait.ts';

export function WaitingLine({ parts, prefix = '' }: { parts: WaitingParts; prefix?: string }) {
  return (
    <>
      {prefix}
      {parts.lead} <span data-waited-since={parts.since}>{parts.waited}</span>
    </>
  );
}
