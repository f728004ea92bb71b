/**
 * What each of the judge console's forms sends, its fields in the order they are checked. A
 * choice made from the console's selects ("tournament/item") reads as its two parts; a JSON
 * client may send the parts as fields of their own.
 */
import { field, fields } from '../http/request-input.ts';

/**
 * A "tournament/item" choice from the console's selects: the field `name` names both, and reads as the pair
 * (a JSON client may send the two parts as fields of their own instead; see `sentAsParts`).
 */
function choice(name: string, first: string, second: string) {
  const what = (id: string) => id.replace(/Id$/, '');
  return field
    .text({ max: 250 })
    .refine((value) => value.lastIndexOf('/') > 0, {
      error: (iss) => `${name} must name a ${what(first)} and a ${what(second)}, as 'one/other', not '${String(iss.input)}'`,
    })
    .transform((value): [string, string] => [value.slice(0, value.lastIndexOf('/')), value.slice(value.lastIndexOf('/') + 1)]);
}
const part = field.text({ max: 120 });
const reason = field.text({ max: 500 });

/** Whether the request sends a choice's two parts rather than the choice. */
export const sentAsParts = (input: Record<string, unknown>, first: string, second: string) =>
  (Object.hasOwn(input, first) && input[first] !== undefined) || (Object.hasOwn(input, second) && input[second] !== undefined);

export const RulingFields = fields({ upheld: field.raw(), note: field.optionalText({ max: 1000 }) });
export const TimeParts = fields({ tournamentId: part, matchId: part });
export const TimeChoice = fields({ match: choice('match', 'tournamentId', 'matchId') }).transform(({ match: [tournamentId, matchId] }) => ({
  tournamentId,
  matchId,
}));
const disqualifying = {
  kind: field
    .optionalText({ max: 20 })
    .transform((kind) => kind || 'disqualified')
    .refine((kind) => kind === 'disqualified' || kind === 'no-show' || kind === 'forfeit', {
      error: (iss) => `kind must be disqualified, no-show or forfeit, not '${String(iss.input)}'`,
    }),
  reason,
};
export const DisqualifyParts = fields({ tournamentId: part, teamId: part, ...disqualifying });
export const DisqualifyChoice = fields({ team: choice('team', 'tournamentId', 'teamId'), ...disqualifying }).transform(
  ({ team: [tournamentId, teamId], ...rest }) => ({
    tournamentId,
    teamId,
    ...rest,
  }),
);
export const CorrectionFields = fields({ gameId: part, NS: field.whole({ min: -2000, max: 2000 }), EW: field.whole({ min: -2000, max: 2000 }), reason });
export const WithdrawalFields = fields({
  kind: field.optionalText({ max: 40 }),
  gameId: part,
  claimId: field.optionalText({ max: 120 }),
  correction: field.optionalWhole({ min: 1 }),
  reason,
});
export const ResultParts = fields({ gameId: part, winner: part, reason });
export const ResultChoice = fields({ result: choice('result', 'gameId', 'winner'), reason }).transform(({ result: [gameId, winner], reason: why }) => ({
  gameId,
  winner,
  reason: why,
}));
