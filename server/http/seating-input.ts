/**
 * What a seating sends about its first dealer and its clock, read the same way by the
 * director's seating form and the table phone's start form (form fields or JSON alike):
 *
 * - a draw for high card: `cardN`, `cardE`, `cardS`, `cardW`, each the card that seat drew, and
 *   after a tie the redraws in order ("KH 9C", or a list in JSON);
 * - a coin toss: `caller` (the team that called), `call` and `result` (heads or tails), `choice`
 *   (the seat the toss's winner chose to deal);
 * - `firstDealer`: with a draw, the seat the table says deals, checked against it; with
 *   `namedBecause`, a dealer named outright instead of the draw or toss (whose fields are then
 *   not read);
 * - `clockMinutes`: a time limit set at the seating, whole minutes, or `none`.
 *
 * Which of these the event accepts is the command's to decide (server/commands/match-commands.ts); this
 * only reads them, refusing what cannot be read with a sentence naming the field.
 */
import { SEAT_NAMES as SEAT_WORDS, type Seat, SEATS } from '../../engine/cards.ts';
import type { BracketSide } from '../../engine/bracket.ts';
import { type FirstDealerDraw, clockForMatch } from '../../engine/formats.ts';
import type { MatchModel } from '../../events/read-models.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import type { FirstDealerInfo, SeatingTeam } from '../../views/seating-forms.tsx';
import type { FirstDealerChoice } from '../commands/match-commands.ts';
import { CommandError } from '../commands/command-error.ts';
import { field, fields, parseFields } from './request-input.ts';

const CARD_FIELDS = { N: 'cardN', E: 'cardE', S: 'cardS', W: 'cardW' } as const satisfies Record<Seat, string>;

/** A seat's cards: "KH", "KH 9C" or "KH, 9C" from a form, or a list of card names in JSON. */
const cards = (seat: Seat) =>
  field
    .raw()
    .optional()
    .transform((raw, ctx): string[] => {
      if (raw === undefined || raw === null || raw === '') return [];
      const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[\s,]+/) : null;
      if (list === null || list.some((c) => typeof c !== 'string') || list.length > 13) {
        ctx.addIssue({ code: 'custom', message: `${CARD_FIELDS[seat]} must be the card ${SEAT_WORDS[seat]} drew (such as KH), then any redraws in order` });
        return [];
      }
      return (list as string[]).map((c) => c.trim().toUpperCase()).filter(Boolean);
    });

const side = (name: string) =>
  field
    .optionalText({ max: 10 })
    .transform((text) => text.toLowerCase())
    .refine((text) => text === '' || text === 'heads' || text === 'tails', { error: (iss) => `${name} is heads or tails, not '${String(iss.input)}'` });

const seat = (name: string) =>
  field
    .optionalText({ max: 5 })
    .transform((text) => text.toUpperCase())
    .refine((text) => text === '' || SEATS.includes(text as Seat), { error: (iss) => `${name} must be N, E, S or W, not '${String(iss.input)}'` });

const SeatingFields = fields({
  cardN: cards('N'),
  cardE: cards('E'),
  cardS: cards('S'),
  cardW: cards('W'),
  caller: field.optionalText({ max: 120 }),
  call: side('the call'),
  result: side('the toss’s result'),
  choice: seat('the dealer the toss’s winner chose'),
  seed: field.optionalText({ max: 100 }),
  firstDealer: seat('the first dealer'),
  namedBecause: field.optionalText({ max: 300 }),
  clockMinutes: field
    .raw()
    .optional()
    .transform((raw, ctx): number | null | undefined => {
      if (raw === undefined || raw === '') return undefined;
      if (raw === null || (typeof raw === 'string' && /^\s*none\s*$/i.test(raw))) return null;
      const minutes = typeof raw === 'string' && /^\s*\d{1,4}\s*$/.test(raw) ? Number(raw) : raw;
      if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > 600) {
        ctx.addIssue({ code: 'custom', message: `the time limit must be whole minutes from 1 to 600, or none, not ${JSON.stringify(raw)}` });
        return undefined;
      }
      return minutes;
    }),
});

export interface SeatingInput extends FirstDealerChoice {
  /** Minutes set at the seating; null for no clock; undefined for the event's own. */
  clockMinutes?: number | null;
}

/** The first-dealer and clock fields of a seating, or a refusal naming the field that cannot be read. */
export function seatingInput(input: Record<string, unknown>): SeatingInput {
  const f = parseFields(input, SeatingFields);
  const clock = f.clockMinutes !== undefined ? { clockMinutes: f.clockMinutes } : {};
  // A dealer named with a reason replaces the draw or toss: the form still sends its choices'
  // defaults (a toss's selects always hold a value), so they are not read.
  if (f.namedBecause !== '') {
    if (!f.firstDealer) throw new CommandError('name the first dealer (N, E, S or W) beside the reason there was no draw');
    return { firstDealer: f.firstDealer as Seat, namedBecause: f.namedBecause, ...clock };
  }
  const drawn = SEATS.filter((s) => f[CARD_FIELDS[s]].length > 0);
  const tossed = [f.caller, f.call, f.result, f.choice].some((x) => x !== '');
  const methods = [drawn.length > 0 && 'a draw for high card', tossed && 'a coin toss', f.seed !== '' && 'a seed'].filter(Boolean);
  if (methods.length > 1) throw new CommandError(`the first dealer is chosen one way, not by ${methods.join(' and by ')}`);
  let draw: FirstDealerDraw | undefined;
  if (drawn.length > 0) {
    const longest = Math.max(...SEATS.map((s) => f[CARD_FIELDS[s]].length));
    const rounds = Array.from({ length: longest }, (_, r) => {
      const round: Partial<Record<Seat, string>> = {};
      for (const s of SEATS) {
        const card = f[CARD_FIELDS[s]][r];
        if (card !== undefined) round[s] = card;
      }
      return round;
    });
    draw = { method: 'high-card', rounds };
  } else if (tossed) {
    const missing = (
      [
        ['caller', 'the team that called the toss'],
        ['call', 'the call (heads or tails)'],
        ['result', 'how the coin came down (heads or tails)'],
        ['choice', 'the seat the toss’s winner chose to deal'],
      ] as const
    ).filter(([key]) => f[key] === '');
    if (missing.length > 0) throw new CommandError(`the coin toss needs ${missing.map(([, words]) => words).join(', ')}`);
    draw = { method: 'coin-toss', caller: f.caller, call: f.call as 'heads' | 'tails', toss: f.result as 'heads' | 'tails', choice: f.choice as Seat };
  } else if (f.seed !== '') {
    draw = { method: 'random', seed: f.seed };
  }
  return {
    ...(draw ? { draw } : {}),
    ...(f.firstDealer ? { firstDealer: f.firstDealer as Seat } : {}),
    ...clock,
  };
}

/** The first dealer in words, for the answer to a seating: "North deals first (drew AS)". */
export function firstDealerWords(decided: Record<string, unknown> | undefined, teamName: (teamId: string) => string = (id) => id): string {
  const dealer = decided?.dealer as Seat | undefined;
  if (!dealer || !SEATS.includes(dealer)) return '';
  if (decided?.method === 'coin-toss') return `${teamName(String(decided.winner))} won the toss and chose ${SEAT_WORDS[dealer]} to deal first`;
  if (decided?.method === 'high-card') return `${SEAT_WORDS[dealer]} drew the highest card and deals first`;
  return `${SEAT_WORDS[dealer]} deals first`;
}

/** What a seating form shows for a match: the event's first-dealer method with the two teams (or the dealer the rotation carries on to), and the clock the event gives it. */
export function seatingInfo(
  state: TournamentState,
  match: Pick<MatchModel, 'teams' | 'side'>,
  carried: { dealer: Seat; after: { number: number } } | null = null,
): { firstDealer: FirstDealerInfo; clock: { minutes: number | null; per: 'match' | 'game' } } {
  const team = (teamId: string | null): SeatingTeam => {
    const row = state.model.teams.find((t) => t.teamId === teamId);
    return { teamId: teamId ?? '', name: row?.name ?? teamId ?? 'to be decided', seed: row?.seed ?? null };
  };
  return {
    firstDealer: {
      method: state.format.firstDealer,
      teams: [team(match.teams[0]), team(match.teams[1])],
      // Games already entered from paper: the deal keeps its rotation, and no draw or toss is made again.
      ...(carried ? { carried: { dealer: carried.dealer, game: carried.after.number } } : {}),
    },
    clock: { minutes: clockForMatch(state.format, match as { side: BracketSide }), per: state.format.clockPer ?? 'match' },
  };
}
