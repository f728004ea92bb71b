/**
 * The printable table codes: each table's code and link to join, each entrant's own page, the
 * sign-up and rules links, all at the address phones reach; and replacing one table's code
 * that got out, which signs out whoever joined with it.
 */
import { entrantsAlone } from '../../events/tournament-state.ts';
import type { Hono } from 'hono';
import type { ReadModels } from '../../events/projections.ts';
import { tournamentById } from '../../events/lookup.ts';
import { playerLink, teamLink, tournamentLinks } from '../../events/addresses.ts';
import { TableCodesPage } from '../../views/director-pages.tsx';
import { NotFoundPage } from '../../views/not-found.tsx';
import type { Auth } from '../auth/auth.ts';
import { tableCount } from '../auth/table-codes.ts';
import { signUpOpenAt } from '../commands/registration-commands.ts';
import { publicAddress } from '../http/public-address.ts';
import { refuse, wantsJson } from '../http/refusals.ts';

export interface CodeRoutesContext {
  models: ReadModels;
  auth: Auth;
  now: () => string;
  /** The address the venue's phones reach this server at, when set. */
  publicUrl: string | undefined;
}

/** Adds the table-code routes to the director's app. */
export function codeRoutes(app: Hono, options: CodeRoutesContext): void {
  const { models, auth, now } = options;

  app.get('/tournaments/:tournamentId/codes', async (c) => {
    const id = c.req.param('tournamentId');
    const state = tournamentById(models, id);
    if (!state) return c.html(String(NotFoundPage({ message: `Tournament ${id} does not exist.`, path: c.req.path })), 404);
    // The address phones reach, never the localhost a director may have opened the page at.
    const { origin, note } = publicAddress(c.req.url, options.publicUrl);
    const cards = (await auth.tableCodes(id, tableCount(models, id))).map((code, i) => ({ table: i + 1, code, link: `${origin}/join?code=${code}` }));
    const rotate = { csrf: auth.current(c).csrf, action: (table: number) => `/director/tournaments/${encodeURIComponent(id)}/tables/${table}/code` };
    // Each entrant's own page, where it reads where to play next.
    const link = entrantsAlone(state) ? playerLink : teamLink;
    const teams = state.model.teams.filter((t) => t.status !== 'withdrawn').map((t) => ({ name: t.name, link: `${origin}${link(id, t.teamId)}` }));
    const signUpLink = signUpOpenAt(state, now()).open ? `${origin}/tournaments/${encodeURIComponent(id)}/sign-up` : null;
    return c.html(
      String(
        <TableCodesPage
          tournamentName={state.model.name}
          cards={cards}
          rotate={rotate}
          address={{ origin, note }}
          teams={teams}
          signUpLink={signUpLink}
          rules={`${origin}${tournamentLinks(id).rules}`}
        />,
      ),
    );
  });

  // A code that got out (photographed, said aloud) is replaced; whoever joined with it is signed out.
  app.post('/tournaments/:tournamentId/tables/:table/code', async (c) => {
    const id = c.req.param('tournamentId');
    if (!tournamentById(models, id)) return refuse(c, 404, `tournament ${id} does not exist`);
    const tables = tableCount(models, id);
    const text = c.req.param('table');
    if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > tables) {
      return refuse(c, 404, `tournament ${id} has tables 1 to ${tables}, not '${text}'`);
    }
    const table = Number(text);
    const code = await auth.rotateTableCode(id, table);
    if (wantsJson(c)) return c.json({ ok: true, tournamentId: id, table, code });
    return c.redirect(`/director/tournaments/${encodeURIComponent(id)}/codes`, 303);
  });
}
