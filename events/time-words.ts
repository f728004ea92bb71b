/**
 * Times as the venue reads them on a page or in a refusal: the day, the hour and the zone,
 * never a raw timestamp.
 */

/** A time as the venue reads it, with its zone: "Sun, Mar 1, 2026, 1:00 PM UTC". */
export function closingWords(iso: string): string {
  return new Date(iso).toLocaleString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}
