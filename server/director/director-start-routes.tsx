/**
 * The director's start and withdrawal, each asked once before it is recorded. A form without
 * confirm=yes is answered with what would happen (the draw's preview, or the withdrawal's
 * question) and records nothing; confirm=yes records, and a start records the very draw its
 * preview showed (the same seed and order, checked against the preview's seeds). An API
 * client's request is its own confirmation, as on the judge console.
 */
import { entrantsAlone } from '../../events/tournament-state.ts';
import { seatedAtTables } from '../../engine/format-play.ts';
import type { Context, Hono } from 'hono';
import type { ReadModels } from '../../events/projections.ts';
import { entrantName } from '../../events/lookup.ts';
import type { DirectorTournamentProps } from '../../views/director-pages.tsx';
import { seedField } from '../../views/director-start.tsx';
import { refusalOf, wantsJson } from '../http/refusals.ts';
import { field, fields, parseFields, readInput } from '../http/request-input.ts';
import { CommandError } from '../commands/command-error.ts';
import type { runCommand } from '../http/run-command.ts';
import { startTournament, withdrawTeam } from '../commands/tournament-commands.ts';
import { withdrawalEvents } from '../commands/registration-commands.ts';
import { entrantOf, tournamentOf } from '../commands/tournament-lookup.ts';
import { cardsOf } from './round-draw-input.ts';
import { startPreview } from './start-preview.ts';
import { waiting } from '../../events/registration-projection.ts';
import { ratingOrder } from '../../events/rating-projection.ts';
import { hasTable, matchPlayOf } from '../../engine/format-play.ts';
import type { FormatOptions } from '../../engine/formats.ts';

type Decide = Parameters<typeof runCommand>[3]['decide'];

export interface StartRoutesContext {
  models: ReadModels;
  /** A command on one tournament, answered with its page's panel. */
  onTournament: (c: Context, scope: string, decide: Decide) => Promise<Response>;
  /** The tournament's panel (or page) with something added: a preview, a question, a refusal. */
  show: (c: Context, extra: Partial<DirectorTournamentProps>, status?: 400 | 404 | 409 | 200) => Response | Promise<Response>;
}

const TeamChoice = fields({ teamId: field.text({ max: 120 }) });
const StartFields = fields({
  // Names or ids, one a line (or by commas) from the form, or a list from JSON; none sent is a random draw.
  order: field
    .raw()
    .transform((raw, ctx): string[] | undefined => {
      if (Array.isArray(raw)) return raw.map((x) => String(x).trim()).filter(Boolean);
      if (raw === undefined || raw === null || raw === '') return undefined;
      if (typeof raw !== 'string') {
        ctx.addIssue({ code: 'custom', message: 'order must be names or ids, one a line' });
        return undefined;
      }
      const order = raw
        .split(/[\n,]/)
        .map((x) => x.trim())
        .filter(Boolean);
      return order.length > 0 ? order : undefined;
    })
    .optional(),
  seed: field.optionalText({ max: 100 }),
  // Seeded by the players' ratings across events (rating-projection.ts).
  byRating: field.raw().optional(),
  // blp-2024, an odd count: the cards drawn for the round 1 bye, as on the round draw's form.
  byeCards: field.raw().optional(),
  withdrawAbsent: field.raw().optional(),
  requirePaid: field.raw().optional(),
  expect: field.optionalText({ max: 8000 }),
});

const yes = (value: unknown) => value === true || value === 'yes' || value === 'true';

/** The order the request gives: seed numbers typed beside the entrants, or names (or ids) pasted one a line. */
/** What the start drew, in the structure's words: a knockout's bracket, a league's every round, a Swiss round 1's pairs. */
function drewWords(format: FormatOptions): string {
  const play = matchPlayOf(format);
  if (play?.rounds === 'drawn') return 'paired round 1';
  return play && hasTable(play) ? 'drew every round' : 'drew the bracket';
}

export function orderOf(models: ReadModels, tournamentId: string, input: Record<string, unknown>, pasted: string[] | undefined): string[] | undefined {
  const tournament = tournamentOf(models, tournamentId);
  const entrants = tournament.model.teams.filter((t) => !tournament.withdrawn.includes(t.teamId));
  const numbered: { teamId: string; name: string; n: number }[] = [];
  for (const t of entrants) {
    const raw = input[seedField(t.teamId)];
    if (raw === undefined || raw === null || String(raw).trim() === '') continue;
    const n = Number(String(raw).trim());
    if (!Number.isInteger(n) || n < 1) throw new CommandError(`the seed for ${t.name} must be a whole number from 1, not '${String(raw)}'`);
    numbered.push({ teamId: t.teamId, name: t.name, n });
  }
  if (numbered.length > 0) {
    if (pasted) throw new CommandError('give the seeding one way: seed numbers beside the names, or a pasted list, not both');
    const left = entrants.filter((t) => !numbered.some((x) => x.teamId === t.teamId));
    for (const x of numbered) {
      const same = numbered.filter((y) => y.n === x.n);
      if (same.length > 1) throw new CommandError(`seed ${x.n} is given to ${same.map((y) => y.name).join(' and ')}; each seed once`);
    }
    // Entrants left without a number (those withdrawn by the start, say) follow in the list's order.
    return [...numbered.sort((a, b) => a.n - b.n).map((x) => x.teamId), ...left.map((t) => t.teamId)];
  }
  if (!pasted) return undefined;
  return pasted.map((line, i) => {
    if (entrants.some((t) => t.teamId === line)) return line;
    const named = entrants.filter((t) => t.name.toLowerCase() === line.toLowerCase());
    if (named.length === 1) return named[0]!.teamId;
    throw new CommandError(`seeding, line ${i + 1}: '${line}' is not the name or id of an entrant still registered`);
  });
}

export function startRoutes(app: Hono, { models, onTournament, show }: StartRoutesContext): void {
  /** The start a request asks for, decided and not recorded, with what its confirmation sends again. */
  function decideStart(c: Context, input: Record<string, unknown>, form: boolean) {
    const tournamentId = c.req.param('tournamentId')!;
    tournamentOf(models, tournamentId);
    const fieldsIn = parseFields(input, StartFields);
    const given = orderOf(models, tournamentId, input, fieldsIn.order);
    if (given && yes(fieldsIn.byRating)) throw new CommandError('give the seeding one way: by rating, seed numbers or a pasted list, not two');
    const order = yes(fieldsIn.byRating) ? ratingOrder(models, tournamentId) : given;
    // A form's random draw gets its seed now, so the preview and the confirmation draw the same.
    const seed = fieldsIn.seed || (form && !order ? `${tournamentId}:${models.position}` : undefined);
    const byeDraw = cardsOf(fieldsIn.byeCards, 'the bye draw’s');
    const withdrawAbsent = yes(fieldsIn.withdrawAbsent);
    const requirePaid = yes(fieldsIn.requirePaid);
    const decision = startTournament(models, {
      requirePaid,
      tournamentId,
      ...(order ? { order } : {}),
      ...(seed ? { seed } : {}),
      ...(byeDraw.length > 0 ? { byeDraw } : {}),
      // The director's desk starts only from check-in; the API (bots, scripted set-ups) once check-in has begun.
      checkIn: form ? 'required' : 'once-begun',
      withdrawAbsent,
    });
    const resend: Record<string, string> = {
      ...(order ? { order: order.join('\n') } : {}),
      ...(seed ? { seed } : {}),
      ...(typeof fieldsIn.byeCards === 'string' && fieldsIn.byeCards.trim() ? { byeCards: fieldsIn.byeCards } : {}),
      ...(withdrawAbsent ? { withdrawAbsent: 'yes' } : {}),
      ...(requirePaid ? { requirePaid: 'yes' } : {}),
    };
    return { tournamentId, order, decision, resend, expect: fieldsIn.expect };
  }

  app.post('/tournaments/:tournamentId/start', async (c) => {
    const form = !wantsJson(c);
    if (form) {
      try {
        const input = await readInput(c);
        if (input.confirm !== 'yes') {
          const asked = decideStart(c, input, true);
          return show(c, { startPreview: startPreview(models, asked.tournamentId, asked.decision, asked.resend) });
        }
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        return show(c, { error: refusal.message }, refusal.status as 400);
      }
    }
    return onTournament(c, 'start', (input) => {
      const { tournamentId, order, decision, expect } = decideStart(c, input, form);
      const started = decision.events.at(-1)!.payload as { seeds: string[] };
      if (expect && expect !== started.seeds.join(',')) {
        throw new CommandError(`tournament ${tournamentId}: the draw is no longer the one previewed (the entrants changed); preview it again`, 409);
      }
      const withdrawn = decision.events.filter((e) => e.type === 'TeamWithdrawn').length;
      const promoted = decision.events
        .filter((e) => e.type === 'WaitlistPromoted')
        .map(
          (e) =>
            waiting(tournamentOf(models, tournamentId).registration, String(e.payload.teamId))?.name ??
            entrantName(models, tournamentId, String(e.payload.teamId)),
        );
      const gone = (withdrawn > 0 ? ` Withdrew ${withdrawn} not checked in.` : '') + (promoted.length > 0 ? ` From the waitlist: ${promoted.join(', ')}.` : '');
      return {
        decision,
        done:
          (seatedAtTables(tournamentOf(models, tournamentId).format)
            ? `${order ? 'Seated in the order given' : 'Drew the first seating at random'}; seat round 1 when the players are ready.`
            : `${order ? 'Seeded in the order given' : 'Seeded at random'} and ${drewWords(tournamentOf(models, tournamentId).format)}.`) + gone,
      };
    });
  });

  app.post('/tournaments/:tournamentId/withdraw', async (c) => {
    const tournamentId = c.req.param('tournamentId')!;
    const word = () => (entrantsAlone(tournamentOf(models, tournamentId)) ? 'Player' : 'Team');
    if (!wantsJson(c)) {
      try {
        const input = await readInput(c);
        if (input.confirm !== 'yes') {
          const { teamId } = parseFields(input, TeamChoice);
          // Decided now, so an entrant who cannot withdraw is refused before the question is asked.
          withdrawTeam(models, { tournamentId, teamId });
          const tournament = tournamentOf(models, tournamentId);
          const name = waiting(tournament.registration, teamId)?.name ?? entrantOf(tournament, teamId).name;
          const taker = withdrawalEvents(tournament, teamId).find((e) => e.type === 'WaitlistPromoted');
          const takerName = taker ? (waiting(tournament.registration, String(taker.payload.teamId))?.name ?? null) : null;
          return show(c, { withdrawal: { teamId, name, progressive: entrantsAlone(tournament), taker: takerName } });
        }
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        return show(c, { error: refusal.message }, refusal.status as 400);
      }
    }
    return onTournament(c, 'withdraw', (input) => {
      const { teamId } = parseFields(input, TeamChoice);
      const tournament = tournamentOf(models, tournamentId);
      const decision = withdrawTeam(models, { tournamentId, teamId });
      const nameOf = (id: string) => waiting(tournament.registration, id)?.name ?? entrantName(models, tournamentId, id);
      const taker = decision.events.find((e) => e.type === 'WaitlistPromoted');
      return {
        decision,
        done: `${word()} ${nameOf(teamId)} withdrew.${taker ? ` ${nameOf(String(taker.payload.teamId))} takes the place from the waitlist.` : ''}`,
      };
    });
  });
}
