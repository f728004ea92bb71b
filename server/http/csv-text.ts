/**
 * One cell of a CSV answer (RFC 4180), shared by every route that answers a spreadsheet: the
 * standings, the statistics, a series' standings.
 */

/** A text cell: quoted when it must be, and never read by a spreadsheet as a formula. */
export function csvText(value: string): string {
  // A name a spreadsheet would read as a formula is kept as text, also when what starts it is
  // hidden behind characters a spreadsheet skips or cannot show (a NUL, a space, a direction mark).
  const safe = /^[\p{Cc}\p{Cf}\p{Z}\s]*[=+\-@]|^[\p{Cc}\p{Cf}]/u.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
