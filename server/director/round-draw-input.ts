/**
 * What a director sends to draw the next round of a bracket drawn round by round: the round
 * number (optional: the next round), a confirmation (a drawn round cannot be taken back), and for each group with a bye
 * the cards drawn at the table. On the form the cards are one line per draw, team and card
 * pairs (`aces AS, kings 10H, books 4C`), a redraw of the teams tied for the highest on the next
 * line; JSON sends the same as a list of objects (`[{ "aces": "AS", "kings": "10H" }]`).
 * No cards for a group means the draw is made from the recorded seed.
 */
import type { DrawRound } from '../../engine/seeding.ts';
import type { DrawRoundInput } from '../commands/round-commands.ts';
import { CommandError } from '../commands/command-error.ts';
import { field, fields, parseFields } from '../http/request-input.ts';

const GROUPS = { winners: 'the winners’ bracket', losers: 'the losers’ bracket' } as const;

const RoundDrawFields = fields({
  round: field.optionalWhole({ min: 2, max: 200 }),
  confirm: field.raw().optional(),
  seed: field.optionalText({ max: 100 }),
  winnersCards: field.raw().optional(),
  winnersBye: field.optionalText({ max: 120 }),
  losersCards: field.raw().optional(),
  losersBye: field.optionalText({ max: 120 }),
});

/** The draw request as the command takes it, or a refusal naming the field and what is wrong. */
export function roundDrawInput(input: Record<string, unknown>): Omit<DrawRoundInput, 'tournamentId'> {
  const sent = parseFields(input, RoundDrawFields);
  if (!(sent.confirm === true || sent.confirm === 'yes')) {
    throw new CommandError(
      `confirm ${sent.round === null ? 'the next round' : `round ${sent.round}`} (tick the box beside its button); a round drawn or paired cannot be taken back`,
    );
  }
  // Without a round number the next round is drawn; with one, it must be the next.
  const draw: Omit<DrawRoundInput, 'tournamentId'> = sent.round === null ? {} : { round: sent.round };
  if (sent.seed) draw.seed = sent.seed;
  for (const group of ['winners', 'losers'] as const) {
    const cards = cardsOf(sent[`${group}Cards`], GROUPS[group]);
    const bye = sent[`${group}Bye`];
    if (cards.length > 0 || bye) draw[group] = { ...(cards.length > 0 ? { cards } : {}), ...(bye ? { bye } : {}) };
  }
  return draw;
}

/** A group's cards: rounds of team-and-card pairs, from the form's lines or JSON's list. */
export function cardsOf(raw: unknown, where: string): DrawRound[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (Array.isArray(raw)) {
    return raw.map((round, r) => {
      if (typeof round !== 'object' || round === null || Array.isArray(round) || Object.values(round).some((card) => typeof card !== 'string')) {
        throw new CommandError(`${where} cards, draw ${r + 1}: give each team's card, such as { "aces": "AS" }`);
      }
      return Object.fromEntries(Object.entries(round as Record<string, string>).map(([team, card]) => [team, card.trim().toUpperCase()]));
    });
  }
  if (typeof raw !== 'string') throw new CommandError(`${where} cards must be lines of teams and their cards, such as "aces AS, kings 10H"`);
  const lines = raw
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length > 20) throw new CommandError(`${where} cards: ${lines.length} draws is more than a draw takes`);
  return lines.map((line, i) => {
    const words = line.split(/[\s,;:=]+/).filter(Boolean);
    const round: Record<string, string> = {};
    for (let w = 0; w < words.length; w += 2) {
      const team = words[w]!;
      const card = words[w + 1];
      if (card === undefined)
        throw new CommandError(`${where} cards, line ${i + 1}: '${team}' has no card; write each team and its card, such as "${team} QH"`);
      if (team in round) throw new CommandError(`${where} cards, line ${i + 1}: '${team}' is named twice`);
      round[team] = card.toUpperCase();
    }
    return round;
  });
}
