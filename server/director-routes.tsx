/**
 * The director's routes: tournament set-up, registration and check-in, seeding and the draw,
 * seating matches at tables, progressive rounds, and the printable table codes. Directors only.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Seat } from '../engine/cards.ts';
import type { FormatId } from '../engine/formats.ts';
import type { Ledger } from '../events/ledger.ts';
import { DirectorHome, DirectorPage, DirectorTournament, type DirectorTournamentProps, TableCodesPage } from '../views/director-pages.tsx';
import { type Auth, type Session, runCommand, tableCount, textField, wholeField } from './auth.ts';
import { CommandError } from './commands.ts';
import { checkInTeam, createTournament, registerTeam, startMatch, startRound, startTournament, withdrawTeam } from './tournament-commands.ts';

const FORMATS: readonly FormatId[] = ['pitt-boss', 'blp-2024', 'unc-intramural', 'asher-theatre', 'tournament-spades'];
const ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,59}$/;

export interface DirectorRoutesOptions {
  ledger: Ledger;
  auth: Auth;
  /** ISO time for match clocks. */
  now?: () => string;
}

export function directorRoutes(options: DirectorRoutesOptions) {
  const { ledger, auth } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const models = ledger.models;
  const app = new Hono();
  app.use('*', auth.guard(['director']));

  const homeProps = (session: Session, notice: { error?: string; done?: string } = {}) => ({
    csrf: session.csrf,
    name: session.name,
    tournaments: Object.values(models.tournaments).map((t) => ({ tournamentId: t.model.tournamentId, name: t.model.name, status: t.model.status, teams: t.model.teams.length })),
    formats: [...FORMATS],
    error: notice.error ?? null,
    done: notice.done ?? null,
  });

  function tournamentProps(session: Session, tournamentId: string, notice: { error?: string; done?: string } = {}): DirectorTournamentProps {
    const state = models.tournaments[tournamentId];
    if (!state) throw new CommandError(`tournament ${tournamentId} does not exist`, 404);
    const t = state.model;
    const name = (id: string | null) => t.teams.find((x) => x.teamId === id)?.name ?? id ?? 'to be decided';
    return {
      csrf: session.csrf,
      tournamentId,
      name: t.name,
      format: t.format,
      status: t.status,
      teams: t.teams.map((team) => ({ ...team, checkedIn: state.checkedIn.includes(team.teamId) })),
      matches: t.matches.map((m) => ({ ...m, names: [name(m.teams[0]), name(m.teams[1])] as [string, string] })),
      progressive: Boolean(state.progressive),
      tables: tableCount(models, tournamentId),
      error: notice.error ?? null,
      done: notice.done ?? null,
    };
  }

  const tournamentIdOf = (c: Context) => {
    const id = c.req.param('tournamentId')!;
    if (!models.tournaments[id]) throw new CommandError(`tournament ${id} does not exist`, 404);
    return id;
  };

  /** A command on one tournament, answered with its page's panel. */
  const onTournament = (c: Context, scope: string, decide: Parameters<typeof runCommand>[3]['decide']) => {
    const session = auth.current(c);
    const id = c.req.param('tournamentId')!;
    const props = (notice: { error?: string; done?: string }) =>
      models.tournaments[id] ? tournamentProps(session, id, notice) : null;
    return runCommand(c, ledger, session, {
      scope,
      decide,
      fragment: (notice) => {
        const p = props(notice);
        return p ? String(<DirectorTournament {...p} />) : String(<DirectorHome {...homeProps(session, notice)} />);
      },
      page: (notice) => {
        const p = props(notice);
        return String(<DirectorPage title="Director" signedIn={session?.name}>{p ? <DirectorTournament {...p} /> : <DirectorHome {...homeProps(session, notice)} />}</DirectorPage>);
      },
      redirect: `/director/tournaments/${encodeURIComponent(id)}`,
    });
  };

  app.get('/', (c) => c.html(String(<DirectorPage title="Director" signedIn={auth.current(c)?.name}><DirectorHome {...homeProps(auth.current(c))} /></DirectorPage>)));

  app.get('/tournaments/:tournamentId', (c) => {
    const id = c.req.param('tournamentId');
    if (!models.tournaments[id]) return c.text(`tournament ${id} does not exist`, 404);
    return c.html(String(<DirectorPage title={`Director · ${id}`} signedIn={auth.current(c)?.name}><DirectorTournament {...tournamentProps(auth.current(c), id)} /></DirectorPage>));
  });

  app.get('/tournaments/:tournamentId/codes', (c) => {
    const id = c.req.param('tournamentId');
    const state = models.tournaments[id];
    if (!state) return c.text(`tournament ${id} does not exist`, 404);
    const origin = new URL(c.req.url).origin;
    const cards = Array.from({ length: tableCount(models, id) }, (_, i) => {
      const code = auth.tableCode(id, i + 1);
      return { table: i + 1, code, link: `${origin}/join?code=${code}` };
    });
    return c.html(String(<TableCodesPage tournamentName={state.model.name} cards={cards} />));
  });

  app.post('/tournaments', (c) => {
    const session = auth.current(c);
    let created = '';
    return runCommand(c, ledger, session, {
      scope: 'create',
      decide: (input) => {
        const tournamentId = textField(input, 'tournamentId', { max: 60 });
        if (!ID.test(tournamentId)) throw new CommandError(`a tournament id is letters, digits and dashes, not '${tournamentId}'`);
        const name = textField(input, 'name', { max: 200 });
        const format = textField(input, 'format', { max: 40 }) as FormatId;
        if (!FORMATS.includes(format)) throw new CommandError(`format must be one of ${FORMATS.join(', ')}, not '${format}'`);
        created = tournamentId;
        return { decision: createTournament(models, { tournamentId, name, format }), done: `Created ${name}.` };
      },
      fragment: (notice) =>
        notice.done && models.tournaments[created]
          ? String(<DirectorTournament {...tournamentProps(session, created, notice)} />)
          : String(<DirectorHome {...homeProps(session, notice)} />),
      page: (notice) => String(<DirectorPage title="Director" signedIn={session?.name}><DirectorHome {...homeProps(session, notice)} /></DirectorPage>),
      redirect: '/director',
    });
  });

  app.post('/tournaments/:tournamentId/teams', (c) =>
    onTournament(c, 'register', (input) => {
      const tournamentId = tournamentIdOf(c);
      const name = textField(input, 'name', { max: 120 });
      const players = [textField(input, 'player1', { max: 120 }), textField(input, 'player2', { max: 120 })];
      const registeredOn = textField(input, 'registeredOn', { optional: true, max: 10 });
      const given = textField(input, 'teamId', { optional: true, max: 60 });
      const teamId = given || slug(name) || `team-${models.tournaments[tournamentId]!.model.teams.length + 1}`;
      if (!ID.test(teamId)) throw new CommandError(`a team id is letters, digits and dashes, not '${teamId}'`);
      return {
        decision: registerTeam(models, { tournamentId, teamId, name, players, ...(registeredOn ? { registeredOn } : {}) }),
        done: `Registered ${name} (${players.join(' & ')}).`,
      };
    }),
  );

  app.post('/tournaments/:tournamentId/check-in', (c) =>
    onTournament(c, 'check-in', (input) => {
      const tournamentId = tournamentIdOf(c);
      const teamId = textField(input, 'teamId', { max: 120 });
      return { decision: checkInTeam(models, { tournamentId, teamId, at: now() }), done: `${teamId} checked in.` };
    }),
  );

  app.post('/tournaments/:tournamentId/withdraw', (c) =>
    onTournament(c, 'withdraw', (input) => {
      const tournamentId = tournamentIdOf(c);
      const teamId = textField(input, 'teamId', { max: 120 });
      return { decision: withdrawTeam(models, { tournamentId, teamId }), done: `${teamId} withdrew.` };
    }),
  );

  app.post('/tournaments/:tournamentId/start', (c) =>
    onTournament(c, 'start', (input) => {
      const tournamentId = tournamentIdOf(c);
      const raw = input.order;
      let order: string[] | undefined;
      if (Array.isArray(raw)) order = raw.map((x) => String(x).trim()).filter(Boolean);
      else if (raw !== undefined && raw !== null && raw !== '') {
        if (typeof raw !== 'string') throw new CommandError('order must be team ids, one a line');
        order = raw.split(/[\n,]/).map((x) => x.trim()).filter(Boolean);
        if (order.length === 0) order = undefined;
      }
      const seed = textField(input, 'seed', { optional: true, max: 100 });
      return {
        decision: startTournament(models, { tournamentId, ...(order ? { order } : {}), ...(seed ? { seed } : {}) }),
        done: order ? 'Seeded in the order given and drew the bracket.' : 'Seeded at random and drew the bracket.',
      };
    }),
  );

  app.post('/tournaments/:tournamentId/rounds', (c) =>
    onTournament(c, 'round', (input) => {
      const tournamentId = tournamentIdOf(c);
      const seed = textField(input, 'seed', { optional: true, max: 100 }) || `${tournamentId}:${models.position}`;
      return { decision: startRound(models, { tournamentId, seed }), done: 'Seated the next round.' };
    }),
  );

  app.post('/tournaments/:tournamentId/matches/:matchId/start', (c) =>
    onTournament(c, 'seat', (input) => {
      const tournamentId = tournamentIdOf(c);
      const matchId = c.req.param('matchId')!;
      const table = wholeField(input, 'table', { min: 1, max: 999 })!;
      const dealer = textField(input, 'firstDealer', { optional: true, max: 5 }) || 'N';
      if (!['N', 'E', 'S', 'W'].includes(dealer)) throw new CommandError(`the first dealer must be N, E, S or W, not '${dealer}'`);
      const busy = models.tournaments[tournamentId]!.model.matches.find((m) => m.status === 'live' && m.table === table);
      if (busy) throw new CommandError(`table ${table} is playing ${busy.label}; seat ${matchId} at another table`, 409);
      return { decision: startMatch(models, { tournamentId, matchId, table, at: now(), firstDealer: dealer as Seat }), done: `Seated ${matchId} at table ${table}.` };
    }),
  );

  return app;
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}
