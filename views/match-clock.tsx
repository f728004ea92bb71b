/**
 * A match clock as every page shows it: the time left as minutes and seconds ("37:21"), the
 * one format the server renders and static/clock.js ticks, so the text never changes shape
 * from one second to the next. Time called, or run out, reads as such.
 */

import type { MatchClock } from '../events/clocks.ts';

/** What a clock times, in the competition's words: "game 2" (each game has its own) or "the match". */
export function clockScope(clock: MatchClock, gameNumber: number | null): string {
  return clock.gameId !== undefined ? (gameNumber !== null ? `game ${gameNumber}` : 'this game') : 'the match';
}

/** Milliseconds left as "M:SS", counting whole seconds down ("0:00" once the time is up). static/clock.js writes the same. */
export function clockText(msLeft: number): string {
  const seconds = Math.max(0, Math.ceil(msLeft / 1000));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes}:${rest < 10 ? '0' : ''}${rest}`;
}

/** A match's clock: the time left, ticking from its data-deadline, or that time was called. */
export function Clock({ clock, now, label = 'Time left', scope }: { clock: MatchClock; now: Date; label?: string; scope?: string }) {
  const start = Date.parse(clock.startedAt);
  if (Number.isNaN(start)) return null;
  const deadline = new Date(start + clock.minutes * 60_000);
  if (clock.calledAt !== null) {
    return (
      <p class="clock is-called" data-clock-scope={scope}>
        <span class="clock-label">{scope ? `Clock on ${scope}` : 'Clock'}</span> <span class="clock-value">Time called</span>
      </p>
    );
  }
  const left = Math.max(0, deadline.getTime() - now.getTime());
  return (
    <p class={left === 0 ? 'clock is-expired' : 'clock'} data-deadline={deadline.toISOString()} data-clock-scope={scope}>
      <span class="clock-label">
        {label}
        {scope ? ` in ${scope}` : ''}
      </span>{' '}
      <time class="clock-value" datetime={`PT${Math.ceil(left / 1000)}S`}>
        {clockText(left)}
      </time>
    </p>
  );
}
