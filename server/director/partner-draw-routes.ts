/**
 * The director's partner draw for an event whose players register alone for a team structure:
 * `POST /director/tournaments/:id/partners/draw` with `{ seed?, odd?, confirm: 'yes' }`. Without
 * confirm it answers the draw it would make and records nothing; with it, the draw is recorded
 * from its seed (the one given, else one the server chooses and records). A desk form's preview
 * carries its seed and teams into the confirmation, so the teams recorded are the teams shown,
 * or the confirmation is refused when the players checked in changed in between.
 */
import { randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { OddPlayer } from '../../engine/partner-draw.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { DirectorTournamentProps } from '../../views/director-pages.tsx';
import type { PartnersPanelProps } from '../../views/partner-draw.tsx';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { placed } from '../commands/registration-commands.ts';
import { CommandError } from '../commands/command-error.ts';
import { type PartnerDrawDecision, decidePartnerDraw, drawnSentence } from '../commands/partner-commands.ts';
import { refusalOf, wantsJson } from '../http/refusals.ts';
import { field, fields, parseFields, readInput } from '../http/request-input.ts';
import type { runCommand } from '../http/run-command.ts';
import { tournamentParam } from './tournament-param.ts';

type Decide = Parameters<typeof runCommand>[3]['decide'];

export interface PartnerRoutesContext {
  models: ReadModels;
  onTournament: (c: Context, scope: string, decide: Decide, answer?: () => Record<string, unknown>) => Promise<Response>;
  show: (c: Context, extra: Partial<DirectorTournamentProps>, status?: 400 | 404 | 409 | 200) => Response | Promise<Response>;
}

const DrawFields = fields({
  seed: field.optionalText({ max: 200 }),
  odd: field.optionalText({ max: 20 }).refine((v) => v === '' || v === 'twice' || v === 'sit-out', {
    error: (iss) => `with an odd number of players the one left over plays twice ('twice') or sits out ('sit-out'), not '${String(iss.input)}'`,
  }),
  confirm: field.raw().optional(),
  // A form's confirmation: the teams its preview showed, by id, so a changed draw is not recorded unseen.
  expect: field.optionalText({ max: 40_000 }),
});

const yes = (value: unknown) => value === true || value === 'yes' || value === 'true';

/** A draw as the API answers it, previewed or recorded. */
export function drawAnswer(d: PartnerDrawDecision) {
  return { seed: d.draw.seed, odd: d.odd, teams: d.teams, sittingOut: d.sittingOut, twice: d.twice, absent: d.absent, promoted: d.promoted };
}

/** The desk's partners panel for an event whose partners are drawn. */
export function partnersPanel(state: TournamentState): PartnersPanelProps {
  const partners = state.partners!;
  const draw = partners.draw;
  const nameOf = (id: string) => partners.players.find((p) => p.teamId === id)?.name ?? id;
  const person = (id: string | null) => (id === null ? null : { playerId: id, name: nameOf(id) });
  const registered = placed(state);
  return {
    registering: state.model.status === 'registration',
    registered: registered.length,
    checkedIn: registered.filter((p) => state.checkedIn.includes(p.teamId)).length,
    odd: state.format.oddPlayer ?? 'sit-out',
    drawn: draw
      ? {
          seed: draw.seed,
          odd: draw.odd,
          teams: draw.teams.map((t) => ({ teamId: t.teamId, name: t.name, players: t.players.map((p) => person(p)!) })),
          sittingOut: person(draw.sittingOut),
          twice: person(draw.twice),
        }
      : null,
  };
}

export function partnerRoutes(app: Hono, { models, onTournament, show }: PartnerRoutesContext): void {
  const decide = (c: Context, input: Record<string, unknown>) => {
    const tournamentId = tournamentParam(models, c);
    const f = parseFields(input, DrawFields);
    // The server's seed when the director gives none: unguessable, and recorded with the draw.
    const seed = f.seed || randomBytes(12).toString('hex');
    const drawn = decidePartnerDraw(models, { tournamentId, seed, ...(f.odd ? { odd: f.odd as OddPlayer } : {}) });
    return { drawn, confirm: yes(f.confirm), expect: f.expect };
  };

  app.post('/tournaments/:tournamentId/partners/draw', async (c) => {
    const json = wantsJson(c);
    try {
      const input = await readInput(c);
      if (!yes(input.confirm)) {
        const { drawn } = decide(c, input);
        if (json) return c.json({ preview: true, recorded: false, ...drawAnswer(drawn) });
        return show(c, {
          partnerDraw: {
            ...drawAnswer(drawn),
            expect: drawn.teams.map((t) => t.teamId).join(','),
          },
        });
      }
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      if (json) return c.json({ error: refusal.message }, refusal.status);
      return show(c, { error: refusal.message }, refusal.status as 400);
    }
    let recorded: PartnerDrawDecision | null = null;
    return onTournament(
      c,
      'partner-draw',
      (input) => {
        const { drawn, expect } = decide(c, input);
        if (expect && expect !== drawn.teams.map((t) => t.teamId).join(',')) {
          throw new CommandError('the players checked in changed since this draw was previewed, so it would draw other teams; preview it again', 409);
        }
        recorded = drawn;
        return { decision: drawn.decision, done: drawnSentence(drawn) };
      },
      () => (recorded ? drawAnswer(recorded) : {}),
    );
  });
}
