/**
 * The director's registration at scale: a pasted list (or an uploaded CSV) previewed and then
 * recorded in one decision, public sign-up opened with a cap and a closing time (and closed),
 * and fees recorded as paid. Directors only, under the same guard as the rest of the desk.
 */
import type { Context, Hono } from 'hono';
import type { ReadModels } from '../../events/projections.ts';
import { entrantName, tournamentById } from '../../events/lookup.ts';
import type { ServedLedger } from '../../events/store/served-ledger.ts';
import type { DirectorTournamentProps } from '../../views/director-pages.tsx';
import { type Auth, signedBy } from '../auth/auth.ts';
import { newCodeSeed } from '../auth/table-codes.ts';
import { type BulkPreview, previewBulk, registerBulk } from '../commands/bulk-registration.ts';
import { registersAlone } from '../../engine/format-play.ts';
import { CommandError } from '../commands/command-error.ts';
import { placed, recordPaid, setSignUp, undoCheckIn, undoPaid, waitingList } from '../commands/registration-commands.ts';
import { entrantNameProblem, normalName } from '../../events/names.ts';
import { closingWords } from '../../events/time-words.ts';
import { tournamentOf } from '../commands/tournament-lookup.ts';
import { refusalOf, wantsJson } from '../http/refusals.ts';
import { field, fields, parseFields, readInput, slug } from '../http/request-input.ts';
import type { runCommand } from '../http/run-command.ts';

type Decide = Parameters<typeof runCommand>[3]['decide'];

export interface RegistrationRoutesContext {
  models: ReadModels;
  ledger: ServedLedger;
  auth: Auth;
  now: () => string;
  onTournament: (c: Context, scope: string, decide: Decide) => Promise<Response>;
  show: (c: Context, extra: Partial<DirectorTournamentProps>, status?: 400 | 404 | 409 | 200) => Response | Promise<Response>;
}

const yes = (value: unknown) => value === true || value === 'yes' || value === 'true' || value === 'on';
const no = (value: unknown) => value === false || value === 'no' || value === 'false' || value === 'off';

const SignUpFields = fields({
  open: field.raw().transform((raw, ctx) => {
    if (yes(raw)) return true;
    if (no(raw)) return false;
    ctx.addIssue({ code: 'custom', message: `open must be true or false, not ${raw === undefined ? 'missing' : JSON.stringify(raw)}` });
    return false;
  }),
  cap: field.optionalWhole({ min: 2, max: 512 }),
  closes: field.optionalText({ max: 40 }),
});

/** The pasted lines, or the text of an uploaded CSV file (a form's `file`). */
async function bulkInput(c: Context): Promise<{ lines: string; confirm: boolean }> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('multipart/form-data')) {
    const form = await c.req.parseBody({ all: false });
    const file = form.file;
    const pasted = typeof form.lines === 'string' ? form.lines : '';
    const uploaded = typeof file === 'object' && file !== null && 'text' in file ? await (file as Blob).text() : '';
    return { lines: pasted.trim() ? pasted : uploaded, confirm: yes(form.confirm) };
  }
  const input = await readInput(c);
  if (input.lines === undefined || input.lines === null) throw new CommandError('lines is missing: paste one entrant a line');
  if (typeof input.lines !== 'string') throw new CommandError('lines must be text, one entrant a line');
  return { lines: input.lines, confirm: yes(input.confirm) };
}

/** A preview as the JSON API answers it. */
function previewJson(tournamentId: string, preview: BulkPreview) {
  return { tournamentId, entrants: preview.entrants, already: preview.already, problems: preview.problems };
}

/** What a desk registration may answer a full cap with, as its form sends it. */
export const overCapField = field.optionalText({ max: 10 }).refine((v) => v === '' || v === 'raise' || v === 'waitlist', {
  error: (iss) => `a full event either raises its cap or waitlists the entrant, not '${String(iss.input)}'`,
});

/**
 * The desk's question when a registration from its form meets a full cap (registration-commands.ts
 * decides it), shown instead of a refusal; null when the cap has room, the director already
 * answered, or the request is the API's (which hears the question as a 409).
 */
export async function capQuestion(c: Context, models: ReadModels, path: string, show: RegistrationRoutesContext['show']): Promise<Response | null> {
  if (wantsJson(c)) return null;
  const input = await readInput(c).catch(() => null);
  if (!input || (typeof input.overCap === 'string' && input.overCap !== '') || typeof input.name !== 'string') return null;
  const state = tournamentById(models, c.req.param('tournamentId')!);
  const signUp = state?.registration.signUp;
  if (!state || !signUp?.open || signUp.cap === null || placed(state).length < signUp.cap || entrantNameProblem(input.name, '')) return null;
  const fields = Object.fromEntries(Object.entries(input).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== '_csrf'));
  return show(c, {
    capChoice: { name: normalName(input.name), holding: placed(state).length, cap: signUp.cap, waiting: waitingList(state).length, path, fields },
  });
}

export function registrationRoutes(app: Hono, ctx: RegistrationRoutesContext): void {
  const { models, ledger, auth, now, onTournament, show } = ctx;

  /** The preview of `lines`, or null when there is nothing to preview (no lines, or a tournament that refuses any). */
  const previewOrNull = (tournamentId: string, lines: string): BulkPreview | null => {
    if (!lines) return null;
    try {
      return previewBulk(models, { tournamentId, lines, idOf: slug, today: now() });
    } catch {
      return null;
    }
  };

  // `/teams/bulk` and `/players/bulk` are one route: the event says which it registers.
  const bulk = async (c: Context) => {
    const tournamentId = c.req.param('tournamentId')!;
    const json = wantsJson(c);
    let lines = '';
    try {
      const input = await bulkInput(c);
      lines = input.lines;
      const preview = previewBulk(models, { tournamentId, lines, idOf: slug, today: now() });
      if (!input.confirm) {
        if (json) return c.json({ ...previewJson(tournamentId, preview), recorded: 0 });
        return show(c, { bulkPreview: { lines, preview } });
      }
      let recorded = preview;
      const session = auth.current(c);
      // Decided again from the models at the head, and appended expecting the version it was decided from.
      const results = await ledger.append(
        () => {
          recorded = previewBulk(models, { tournamentId, lines, idOf: slug, today: now() });
          const decision = registerBulk(recorded, {
            tournamentId,
            progressive: registersAlone(tournamentOf(models, tournamentId).format),
            codeSeed: newCodeSeed,
          });
          return decision ? [decision] : [];
        },
        { meta: signedBy(session) },
      );
      const position = results.at(-1)?.positions.at(-1) ?? null;
      const count = recorded.entrants.length;
      const done =
        count === 0
          ? `Everyone in the paste is already registered (${recorded.already.length}); nothing was recorded.`
          : `Registered ${count} entrant${count === 1 ? '' : 's'} in one decision${recorded.already.length > 0 ? `; ${recorded.already.length} already registered` : ''}.`;
      if (json) return c.json({ ...previewJson(tournamentId, recorded), recorded: count, position, done });
      return show(c, { done });
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      // A paste with problems answers with its preview too, so every line to fix is named.
      const preview = refusal.status === 400 ? previewOrNull(tournamentId, lines) : null;
      if (json) return c.json({ error: refusal.message, ...(preview ? { ...previewJson(tournamentId, preview), recorded: 0 } : {}) }, refusal.status);
      return show(c, { error: refusal.message, ...(preview ? { bulkPreview: { lines, preview } } : {}) }, refusal.status as 400);
    }
  };
  app.post('/tournaments/:tournamentId/teams/bulk', bulk);
  app.post('/tournaments/:tournamentId/players/bulk', bulk);

  app.post('/tournaments/:tournamentId/sign-up', (c) =>
    onTournament(c, 'sign-up', (input) => {
      const tournamentId = c.req.param('tournamentId')!;
      const { open, cap, closes } = parseFields(input, SignUpFields);
      const decision = setSignUp(models, { tournamentId, open, cap, closes: closes || null, at: now() });
      const promoted = decision.events.filter((e) => e.type === 'WaitlistPromoted').length;
      const closing = decision.events[0]!.payload.closes as string | null | undefined;
      const done = open
        ? `Sign-up is open${cap !== null ? ` for ${cap} entrants` : ''}${closing ? ` until ${closingWords(closing)}` : ''}.${promoted > 0 ? ` ${promoted} promoted from the waitlist.` : ''}`
        : 'Sign-up is closed.';
      return { decision, done };
    }),
  );

  // What can be undone is undone by a compensating event: a payment or a check-in recorded by mistake.
  app.post('/tournaments/:tournamentId/teams/:teamId/unpaid', (c) =>
    onTournament(c, 'unpaid', () => {
      const [tournamentId, teamId] = [c.req.param('tournamentId')!, c.req.param('teamId')!];
      const decision = undoPaid(models, { tournamentId, teamId });
      return {
        decision,
        done: `Took back the $${String(decision.events[0]!.payload.amount)} recorded as paid by ${entrantName(models, tournamentId, teamId)}.`,
      };
    }),
  );
  app.post('/tournaments/:tournamentId/teams/:teamId/check-in/undo', (c) =>
    onTournament(c, 'undo-check-in', () => {
      const [tournamentId, teamId] = [c.req.param('tournamentId')!, c.req.param('teamId')!];
      const name = waitingList(tournamentOf(models, tournamentId)).find((w) => w.teamId === teamId)?.name ?? entrantName(models, tournamentId, teamId);
      return { decision: undoCheckIn(models, { tournamentId, teamId }), done: `${name} is no longer checked in.` };
    }),
  );

  app.post('/tournaments/:tournamentId/teams/:teamId/paid', (c) =>
    onTournament(c, 'paid', () => {
      const tournamentId = c.req.param('tournamentId')!;
      const teamId = c.req.param('teamId')!;
      const decision = recordPaid(models, { tournamentId, teamId });
      return { decision, done: `Recorded $${String(decision.events[0]!.payload.amount)} paid by ${entrantName(models, tournamentId, teamId)}.` };
    }),
  );
}
