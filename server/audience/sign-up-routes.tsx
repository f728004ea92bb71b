/**
 * What a team does from its own phone: sign itself up at `/tournaments/:id/sign-up` (registered
 * within the cap, waitlisted past it), and check itself in from its page with its code. Sign-ups
 * count against the address they come from (but for one the server could not record), and
 * wrong codes against the address that tried them; a right code works from any address. Each is decided from the ledger's models and
 * appended expecting the stream version it was decided from.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { tournamentById } from '../../events/lookup.ts';
import { waiting } from '../../events/registration-projection.ts';
import type { ServedLedger } from '../../events/store/served-ledger.ts';
import { entrantsAlone } from '../../events/tournament-state.ts';
import { seatedAtTables } from '../../engine/format-play.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { NotFoundPage } from '../../views/not-found.tsx';
import { SignedUpPage, SignUpPage, type SignUpPageProps } from '../../views/sign-up-page.tsx';
import type { Auth } from '../auth/auth.ts';
import { newCodeSeed } from '../auth/table-codes.ts';
import { freeId, placed, signUp, signUpOpenAt, waitingList } from '../commands/registration-commands.ts';
import { checkInTeam } from '../commands/tournament-commands.ts';
import { clientAddress } from '../http/client-address.ts';
import { AccessError, type RefusalStatus, refuse, refusalOf, wantsJson } from '../http/refusals.ts';
import { field, fields, parseFields, readInput, slug } from '../http/request-input.ts';
import { playerLink, teamLink } from '../../events/addresses.ts';
import { isOwnPhone, keepPhone, phoneKey, phoneOf } from './phone-cookie.ts';
import { missingSubjectOf, renderSubjectPage } from './team-pages.tsx';

// Longer than any name may be, so an over-long one is refused with its own sentence (events/names.ts).
const SignUpFields = fields({
  name: field.optionalText({ max: 16_000 }),
  player1: field.optionalText({ max: 16_000 }),
  player2: field.optionalText({ max: 16_000 }),
  gender: field
    .optionalText({ max: 10 })
    .refine((g) => g === '' || g === 'male' || g === 'female', { error: (iss) => `gender (the prize category) is male or female, not '${String(iss.input)}'` }),
});
const CodeFields = fields({ code: field.optionalText({ max: 40 }) });

export interface SignUpRoutesOptions {
  ledger: ServedLedger;
  auth: Auth;
  /** ISO time of a request: decides whether sign-up is still open, the fee, and the check-in's time. */
  now?: () => string;
}

/** The sign-up's state as the read API answers it: ids in order, with names beside them. */
export function signUpJson(state: TournamentState, at: string) {
  const open = signUpOpenAt(state, at);
  const signUp = state.registration.signUp;
  return {
    tournamentId: state.model.tournamentId,
    name: state.model.name,
    open: open.open,
    ...(open.open ? {} : { why: open.why }),
    cap: signUp?.cap ?? null,
    closes: signUp?.closes ?? null,
    registered: placed(state).map((t) => t.teamId),
    waitlist: waitingList(state).map((w) => w.teamId),
    names: Object.fromEntries([...placed(state).map((t) => [t.teamId, t.name]), ...waitingList(state).map((w) => [w.teamId, w.name])]),
  };
}

export function signUpRoutes(options: SignUpRoutesOptions) {
  const { ledger, auth } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const models = ledger.models;
  const app = new Hono();

  const pageProps = (state: TournamentState, at: string, extra: Partial<SignUpPageProps> = {}): SignUpPageProps => {
    const open = signUpOpenAt(state, at);
    return {
      tournamentId: state.model.tournamentId,
      name: state.model.name,
      // Whether a phone signs up a player alone (a progressive evening, drawn partners) or a team.
      progressive: entrantsAlone(state),
      categories: seatedAtTables(state.format),
      open: open.open,
      why: open.open ? null : `${open.why}; ${open.next}`,
      cap: state.registration.signUp?.cap ?? null,
      closes: state.registration.signUp?.closes ?? null,
      registered: placed(state).length,
      waitlisted: waitingList(state).length,
      fees: state.format.fees,
      ...extra,
    };
  };

  const missing = (c: Context, id: string) =>
    wantsJson(c)
      ? c.json({ error: `tournament ${id} does not exist` }, 404)
      : c.html(String(NotFoundPage({ message: `Tournament ${id} does not exist.`, path: c.req.path })), 404);

  app.get('/tournaments/:tournamentId/sign-up', async (c) => {
    const id = c.req.param('tournamentId');
    const state = tournamentById(models, id);
    if (!state) return missing(c, id);
    if (!wantsJson(c)) {
      // The phone gets its cookie here, so its check-in tries later count against itself.
      await keepPhone(c, auth.secret, await phoneOf(c, auth.secret));
      return c.html(String(<SignUpPage {...pageProps(state, now())} />));
    }
    // The answer changes with the ledger's position, and once with the closing time passing.
    const body = signUpJson(state, now());
    const etag = `"${models.position}${body.open ? '' : '-closed'}"`;
    c.header('access-control-allow-origin', '*');
    c.header('etag', etag);
    c.header('cache-control', 'no-cache');
    if (c.req.header('if-none-match') === etag) return c.body(null, 304);
    return c.json(body);
  });

  app.post('/tournaments/:tournamentId/sign-up', async (c) => {
    const id = c.req.param('tournamentId');
    if (!tournamentById(models, id)) return missing(c, id);
    const json = wantsJson(c);
    let values: Record<string, string> = {};
    // The sign-up's count against its address, taken back should the server fail to answer it.
    let counted: (() => Promise<void>) | null = null;
    try {
      const input = await readInput(c);
      values = typedValues(input);
      values = parseFields(input, SignUpFields);
      const limited = await auth.trySignUp(clientAddress(c));
      if (!limited.ok) {
        c.header('retry-after', String(limited.waitSeconds));
        throw new AccessError(limited.message, 429);
      }
      counted = limited.takeBack;
      const at = now();
      const codeSeed = newCodeSeed();
      let teamId = '';
      await ledger.append(
        () => {
          const state = tournamentById(models, id)!;
          teamId = freeId(state, slug(values.name ?? ''));
          return signUp(models, {
            tournamentId: id,
            teamId,
            name: values.name ?? '',
            players: entrantsAlone(state) ? [] : [values.player1 ?? '', values.player2 ?? ''],
            ...(values.gender ? { gender: values.gender as 'male' | 'female' } : {}),
            at,
            codeSeed,
          });
        },
        { meta: { by: 'sign-up' } },
      );
      const state = tournamentById(models, id)!;
      const queued = waitingList(state).findIndex((w) => w.teamId === teamId);
      const status = queued >= 0 ? ('waitlisted' as const) : ('registered' as const);
      const page = (entrantsAlone(state) ? playerLink : teamLink)(id, teamId);
      const code = auth.checkInCode(id, teamId, codeSeed);
      const name = placed(state).find((t) => t.teamId === teamId)?.name ?? waiting(state.registration, teamId)?.name ?? teamId;
      if (json) return c.json({ status, teamId, name, page, code, ...(queued >= 0 ? { place: queued + 1 } : {}) });
      // The phone keeps the entrant, and the answer is a page of its own: a reload shows it again, sending nothing.
      await keepPhone(c, auth.secret, await phoneOf(c, auth.secret), [id, teamId]);
      return c.redirect(`${page}/signed-up`, 303);
    } catch (error) {
      const refusal = refusalOf(error);
      // The ledger busy or unwritable refused nothing the person asked: it does not count.
      if (counted && (!refusal || refusal.status === 503)) await counted().catch(() => undefined);
      if (!refusal) throw error;
      if (json) return c.json({ error: refusal.message }, refusal.status);
      return c.html(String(<SignUpPage {...pageProps(tournamentById(models, id)!, now(), { error: refusal.message, values })} />), refusal.status);
    }
  });

  for (const kind of ['teams', 'players'] as const) {
    const linkOf = kind === 'teams' ? teamLink : playerLink;
    const viewOf = (id: string, subjectId: string) => ({
      kind: kind === 'teams' ? ('team' as const) : ('player' as const),
      tournamentId: id,
      subjectId,
      channel: '',
    });
    /** The entrant's page as this phone sees it: its code when it signed the entrant up, and a refusal beside the form. */
    const subjectPage = async (c: Context, id: string, teamId: string, error: string | null = null) => {
      const phone = await phoneOf(c, auth.secret);
      await keepPhone(c, auth.secret, phone);
      const state = tournamentById(models, id);
      const own = state && isOwnPhone(phone, id, teamId) ? auth.checkInCode(id, teamId, state.registration.codeSeeds[teamId]) : null;
      return renderSubjectPage(viewOf(id, teamId), models, now(), { code: own, error });
    };

    // The entrant's own page, read by the app's live route otherwise: here so a phone gets its cookie and its code.
    app.get(`/tournaments/:tournamentId/${kind}/:teamId`, async (c) => {
      const [id, teamId] = [c.req.param('tournamentId')!, c.req.param('teamId')!];
      const html = await subjectPage(c, id, teamId);
      if (html === null)
        return c.html(
          String(NotFoundPage({ message: `${missingSubjectOf(viewOf(id, teamId), models) ?? 'There is nothing at this address'}.`, path: c.req.path })),
          404,
        );
      return c.html(html);
    });

    // The sign-up's answer, as often as the phone that signed up asks; any other phone goes to the entrant's page.
    app.get(`/tournaments/:tournamentId/${kind}/:teamId/signed-up`, async (c) => {
      const [id, teamId] = [c.req.param('tournamentId')!, c.req.param('teamId')!];
      const state = tournamentById(models, id);
      if (!state) return missing(c, id);
      const page = linkOf(id, teamId);
      const phone = await phoneOf(c, auth.secret);
      const row = state.model.teams.find((t) => t.teamId === teamId);
      const queued = waitingList(state).findIndex((w) => w.teamId === teamId);
      if (!isOwnPhone(phone, id, teamId) || (!row && queued < 0)) return c.redirect(page, 303);
      const name = row?.name ?? waitingList(state)[queued]!.name;
      const code = auth.checkInCode(id, teamId, state.registration.codeSeeds[teamId]);
      const status = queued >= 0 ? ('waitlisted' as const) : ('registered' as const);
      return c.html(
        String(
          <SignedUpPage
            tournamentId={id}
            tournamentName={state.model.name}
            name={name}
            status={status}
            place={queued >= 0 ? queued + 1 : null}
            page={page}
            code={code}
          />,
        ),
      );
    });

    // "We're here": the entrant checks itself in with its code, recorded as a director's check-in is, by the team.
    app.post(`/tournaments/:tournamentId/${kind}/:teamId/check-in`, async (c) => {
      const id = c.req.param('tournamentId')!;
      const teamId = c.req.param('teamId')!;
      const state = tournamentById(models, id);
      if (!state) return missing(c, id);
      const row = state.model.teams.find((t) => t.teamId === teamId) ?? waiting(state.registration, teamId);
      if (!row) return refuse(c, 404, `${state.model.name} has no ${kind === 'teams' ? 'team' : 'player'} at this address`);
      const page = linkOf(id, teamId);
      // A refusal is the entrant's page again, the reason above the form to try once more.
      const refused = async (status: RefusalStatus, message: string) =>
        wantsJson(c) ? c.json({ error: message }, status) : c.html((await subjectPage(c, id, teamId, `${message}.`)) ?? message, status);
      try {
        const { code } = parseFields(await readInput(c), CodeFields);
        if (!code) return await refused(400, `type the check-in code of ${row.name} (on the card or the sign-up answer) before “We’re here”`);
        if (state.checkedIn.includes(teamId) && !wantsJson(c)) return c.redirect(page, 303);
        const phone = await phoneOf(c, auth.secret);
        const tried = await auth.tryCheckInCode(phoneKey(c, phone), isOwnPhone(phone, id, teamId), id, teamId, state.registration.codeSeeds[teamId], code);
        if (!tried.ok) {
          if (tried.status === 429) {
            c.header('retry-after', String(tried.waitSeconds));
            return await refused(429, tried.message);
          }
          return await refused(
            403,
            `that is not the check-in code of ${row.name}; it is on the card or the sign-up answer it was given, and the director's desk can check you in`,
          );
        }
        await ledger.append(() => checkInTeam(models, { tournamentId: id, teamId, at: now(), by: 'team' }), { meta: { by: `team:${teamId}` } });
        if (wantsJson(c)) return c.json({ ok: true, teamId, name: row.name, checkedIn: true, done: `${row.name} is checked in.` });
        return c.redirect(page, 303);
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        return await refused(refusal.status, refusal.message);
      }
    });
  }

  return app;
}

/** What was typed, as text, kept for the form after a refusal even when a field could not be read. */
function typedValues(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length <= 16_000));
}
