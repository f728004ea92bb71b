/**
 * The director's routes: tournament set-up, registration and check-in, and the panel every
 * other director route answers with (the start, seating, progressive rounds and the table codes
 * are added from their own modules). Directors only.
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { type FormatOptions, formatOptions } from '../../engine/formats.ts';
import { FORMAT_CHOICES, RULEBOOK_EVENTS, eventKindName } from '../../engine/structures.ts';
import { builderProps, typedText } from './create-form.ts';
import { RulesBuilder, RulesPreview } from '../../views/rules-builder.tsx';
import type { ServedLedger } from '../../events/store/served-ledger.ts';
import { DirectorHome, DirectorPage, DirectorTournament, type DirectorTournamentProps } from '../../views/director-pages.tsx';
import type { Auth } from '../auth/auth.ts';
import { refuse } from '../http/refusals.ts';
import { field, fields, parseFields, readInput, ID_PATTERN, slug } from '../http/request-input.ts';
import type { Session } from '../auth/sessions.ts';
import { newCodeSeed, tableCount } from '../auth/table-codes.ts';
import { runCommand } from '../http/run-command.ts';
import { CommandError } from '../commands/command-error.ts';
import { NotFoundPage } from '../../views/not-found.tsx';
import { checkInTeam, createTournament, pinScreen, registerTeam } from '../commands/tournament-commands.ts';
import { startRoutes } from './director-start-routes.tsx';
import { carriedFirstDealer } from '../commands/match-commands.ts';
import { waitingParts } from '../../events/ruling-wait.ts';
import { firstDealerWords, seatingInfo } from '../http/seating-input.ts';
import { createChoices } from './create-choices.ts';
import { roundToDraw } from '../commands/round-commands.ts';
import { pinnedTournament, screenIsPinned } from '../../events/screen-pin.ts';
import { entrantName, tournamentById } from '../../events/lookup.ts';
import { progressiveRoutes } from './director-progressive-routes.tsx';
import { seatingRoutes } from './director-seating-routes.ts';
import { codeRoutes } from './director-code-routes.tsx';
import { playerStandings, progressiveDirectorProps } from '../../views/progressive-panels.tsx';
import { capQuestion, overCapField, registrationRoutes } from './director-registration-routes.tsx';
import { registrationPanel } from './registration-panel.ts';
import { type OverCap, freeId } from '../commands/registration-commands.ts';
import { teamStandings } from '../../events/standings.ts';
import { circuitPanelProps } from '../api/circuit-resources.ts';
import { joinOnCreate } from '../commands/circuit-commands.ts';
import { tournamentParam } from './tournament-param.ts';
import { partnerRoutes, partnersPanel } from './partner-draw-routes.ts';
import { entrantsAlone } from '../../events/tournament-state.ts';

// What each director's form sends, its fields in the order they are checked.
const CreateFields = fields({
  tournamentId: field
    .text({ max: 60 })
    .refine((id) => ID_PATTERN.test(id), { error: (iss) => `a tournament id is letters, digits and dashes, not '${String(iss.input)}'` }),
  name: field.text({ max: 200 }),
  // What the event is (a structure, or a rulebook event), checked with its rules by engine/structures.ts.
  format: field.text({ max: 60 }),
  // Progressive evenings and Swiss events: how many rounds; a round robin: how many times through; left out, the format's own.
  rounds: field.optionalWhole({ min: 1, max: 99 }),
  // Single elimination: `first-round` for a second-chance bracket of the first round's losers.
  consolation: field.optionalText({ max: 20 }),
  // A team structure: `drawn` when players register alone and partners are drawn, and then what an odd player does (`twice`, `sit-out`).
  partners: field.optionalText({ max: 20 }),
  oddPlayer: field.optionalText({ max: 20 }),
});

// Longer than any name may be, so an over-long one is refused with its own sentence (events/names.ts).
const TeamFields = fields({
  name: field.text({ max: 16_000 }),
  player1: field.text({ max: 16_000 }),
  player2: field.text({ max: 16_000 }),
  registeredOn: field.optionalText({ max: 10 }),
  teamId: field.optionalText({ max: 60 }),
  overCap: overCapField,
});
const TeamChoice = fields({ teamId: field.text({ max: 120 }) });

export interface DirectorRoutesOptions {
  ledger: ServedLedger;
  auth: Auth;
  /** ISO time for match clocks. */
  now?: () => string;
  /** The address phones reach the server at, for the table cards' QR codes (PUBLIC_URL). */
  publicUrl?: string;
}

export function directorRoutes(options: DirectorRoutesOptions) {
  const { ledger, auth } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const models = ledger.models;
  const app = new Hono();
  app.use('*', auth.guard(['director']));

  // `typed`: a refused create form's fields as the director typed them, shown again.
  const homeProps = async (session: Session, notice: { error?: string; done?: string } = {}, typed?: Record<string, unknown>) => ({
    csrf: session.csrf,
    name: session.name,
    tournaments: Object.values(models.tournaments).map((t) => ({
      tournamentId: t.model.tournamentId,
      name: t.model.name,
      status: t.model.status,
      teams: t.model.teams.length,
      onScreen: pinnedTournament(models) === t.model.tournamentId,
    })),
    formatDefaults: RULEBOOK_EVENTS.map((r) => ({ format: r.id, ...pick(formatOptions(r.id)) })),
    error: notice.error ?? null,
    done: notice.done ?? null,
    sessions: await auth.sessionList(session),
    builder: builderProps(typedFormat(typed), typed ?? {}),
    typed: typed ? typedText(typed) : undefined,
    series: Object.values(models.circuit.series).map(({ seriesId, name }) => ({ seriesId, name })),
  });

  function tournamentProps(session: Session, tournamentId: string, notice: { error?: string; done?: string } = {}): DirectorTournamentProps {
    const state = tournamentById(models, tournamentId);
    if (!state) throw new CommandError(`tournament ${tournamentId} does not exist`, 404);
    const t = state.model;
    const one = (id: string | null) => t.teams.find((x) => x.teamId === id)?.name ?? id ?? 'to be decided';
    // A progressive table's side is a pair of players for the round, `a+b`.
    const name = (id: string | null) => (id?.includes('+') ? id.split('+').map(one).join(' & ') : one(id));
    const standings = teamStandings(t);
    // A progressive player's standing says where they sit this round, or that they rest.
    for (const [id, standing] of playerStandings(state)) standings.set(id, standing);
    return {
      csrf: session.csrf,
      tournamentId,
      name: t.name,
      format: t.format,
      kind: eventKindName(t.format, state.format),
      status: t.status,
      teams: t.teams.map((team) => ({ ...team, checkedIn: state.checkedIn.includes(team.teamId), standing: standings.get(team.teamId)?.label ?? team.status })),
      matches: t.matches.map((m) => ({
        ...m,
        names: [name(m.teams[0]), name(m.teams[1])] as [string, string],
        // How the first dealer was chosen, as recorded when the match was seated.
        dealt: firstDealerWords(state.matchInfo[m.matchId]?.started ? state.matchInfo[m.matchId]!.firstDealer : undefined, (id) => name(id)),
        ruling: waitingParts(m, now()),
      })),
      progressive: seatedAtTables(state.format),
      alone: entrantsAlone(state),
      ...(state.partners ? { partners: partnersPanel(state) } : {}),
      roundToDraw: roundToDraw(models, tournamentId),
      ...(state.progressive ? { progressivePanel: progressiveDirectorProps(state, models.games) } : {}),
      tables: tableCount(models, tournamentId),
      seatings: Object.fromEntries(
        t.matches.filter((m) => m.status === 'ready').map((m) => [m.matchId, seatingInfo(state, m, carriedFirstDealer(models, tournamentId, m.matchId))]),
      ),
      screen: pinnedTournament(models) !== tournamentId ? 'other' : screenIsPinned(models) ? 'pinned' : 'default',
      registration: registrationPanel(state, now(), (teamId, seed) => auth.checkInCode(tournamentId, teamId, seed)),
      circuit: circuitPanelProps(models, tournamentId, t.status === 'registration'),
      error: notice.error ?? null,
      done: notice.done ?? null,
    };
  }

  // Asked once the command found the tournament.
  const entrantWord = (id: string) => (entrantsAlone(tournamentById(models, id)!) ? 'Player' : 'Team');

  const tournamentIdOf = (c: Context) => tournamentParam(models, c);

  /** A command on one tournament, answered with its page's panel. */
  const onTournament = (c: Context, scope: string, decide: Parameters<typeof runCommand>[3]['decide'], answer?: () => Record<string, unknown>) => {
    const session = auth.current(c);
    const id = c.req.param('tournamentId')!;
    const props = (notice: { error?: string; done?: string }) => (tournamentById(models, id) ? tournamentProps(session, id, notice) : null);
    return runCommand(c, ledger, session, {
      scope,
      decide,
      ...(answer ? { answer } : {}),
      fragment: async (notice) => {
        const p = props(notice);
        return p ? String(<DirectorTournament {...p} />) : String(<DirectorHome {...(await homeProps(session, notice))} />);
      },
      page: async (notice) => {
        const p = props(notice);
        return String(
          <DirectorPage title="Director" signedIn={session?.name}>
            {p ? <DirectorTournament {...p} /> : <DirectorHome {...(await homeProps(session, notice))} />}
          </DirectorPage>,
        );
      },
      redirect: `/director/tournaments/${encodeURIComponent(id)}`,
    });
  };

  /** The tournament's panel with something added (a preview, a question, a refusal): the panel to htmx, else the page. */
  const show = async (c: Context, extra: Partial<DirectorTournamentProps>, status: 200 | 400 | 404 | 409 = 200) => {
    const session = auth.current(c);
    const id = c.req.param('tournamentId')!;
    const body = tournamentById(models, id) ? (
      <DirectorTournament {...tournamentProps(session, id)} {...extra} />
    ) : (
      <DirectorHome {...(await homeProps(session, { error: extra.error ?? `tournament ${id} does not exist` }))} />
    );
    return c.html(
      c.req.header('hx-request')
        ? String(body)
        : String(
            <DirectorPage title={`Director · ${id}`} signedIn={session?.name}>
              {body}
            </DirectorPage>,
          ),
      status,
    );
  };

  // The rules builder of the format chosen on the create form, and the rules sheet the form would make.
  // Posted with the form, so the session's token never travels in an address.
  app.post('/rules-builder', async (c) => {
    const input = await readInput(c);
    const format = String(input.format ?? '');
    if (!FORMAT_CHOICES.includes(format)) return refuse(c, 400, `format must be one of ${FORMAT_CHOICES.join(', ')}, not '${format}'`);
    // A fresh builder for the event and the rules chosen: values typed for others are not carried.
    // Rules chosen beside another event are not carried either: a new event starts from its own.
    const rules = input.rulesFormat === format ? { rules: input.rules ?? (input.rulesFrom === 'standard' ? 'standard' : '') } : {};
    return c.html(String(<RulesBuilder {...builderProps(format, rules)} />));
  });
  app.post('/rules-preview', async (c) => {
    const input = await readInput(c);
    const format = String(input.format ?? '');
    if (!FORMAT_CHOICES.includes(format)) return refuse(c, 400, `format must be one of ${FORMAT_CHOICES.join(', ')}, not '${format}'`);
    return c.html(String(<RulesPreview preview={builderProps(format, input).preview} />));
  });

  app.get('/', async (c) =>
    c.html(
      String(
        <DirectorPage title="Director" signedIn={auth.current(c)?.name}>
          <DirectorHome {...(await homeProps(auth.current(c)))} />
        </DirectorPage>,
      ),
    ),
  );

  app.get('/tournaments/:tournamentId', (c) => {
    const id = c.req.param('tournamentId');
    if (!tournamentById(models, id)) return c.html(String(NotFoundPage({ message: `Tournament ${id} does not exist.`, path: c.req.path })), 404);
    return c.html(
      String(
        <DirectorPage title={`Director · ${id}`} signedIn={auth.current(c)?.name}>
          <DirectorTournament {...tournamentProps(auth.current(c), id)} />
        </DirectorPage>,
      ),
    );
  });

  app.post('/tournaments', (c) => {
    const session = auth.current(c);
    let created = '';
    let typed: Record<string, unknown> | undefined;
    return runCommand(c, ledger, session, {
      scope: 'create',
      decide: (input) => {
        typed = input;
        const { tournamentId, name, format, rounds, consolation, partners, oddPlayer } = parseFields(input, CreateFields);
        created = tournamentId;
        const { start, options } = createChoices(input, format);
        if (rounds !== null) options.rounds = rounds;
        if (consolation !== '') options.consolation = consolation as FormatOptions['consolation'];
        if (partners !== '' && partners !== 'registered') options.partners = partners as FormatOptions['partners'];
        if (oddPlayer !== '') options.oddPlayer = oddPlayer as FormatOptions['oddPlayer'];
        const decision = createTournament(models, { tournamentId, name, format: start.format, options });
        // An event may join a series as it is created (`series`), in the same decision.
        decision.events.push(...joinOnCreate(models, tournamentId, input.series));
        return { decision, done: `Created ${name}.` };
      },
      fragment: async (notice) =>
        notice.done && tournamentById(models, created)
          ? String(<DirectorTournament {...tournamentProps(session, created, notice)} />)
          : String(<DirectorHome {...(await homeProps(session, notice, notice.error ? typed : undefined))} />),
      page: async (notice) =>
        String(
          <DirectorPage title="Director" signedIn={session?.name}>
            <DirectorHome {...(await homeProps(session, notice, notice.error ? typed : undefined))} />
          </DirectorPage>,
        ),
      redirect: '/director',
    });
  });

  app.post('/tournaments/:tournamentId/teams', async (c) => {
    // Past a full cap the desk's form asks whether to raise it or waitlist the team, as the public page would.
    const asked = await capQuestion(c, models, '/teams', show);
    if (asked) return asked;
    return onTournament(c, 'register', (input) => {
      const tournamentId = tournamentIdOf(c);
      const { name, player1, player2, registeredOn, teamId: given, overCap } = parseFields(input, TeamFields);
      const players = [player1, player2];
      const teamId = given || freeId(tournamentById(models, tournamentId)!, slug(name));
      if (!ID_PATTERN.test(teamId)) throw new CommandError(`a team id is letters, digits and dashes, not '${teamId}'`);
      const decision = registerTeam(models, {
        tournamentId,
        teamId,
        name,
        players,
        codeSeed: newCodeSeed(),
        today: now(),
        ...(registeredOn ? { registeredOn } : {}),
        ...(overCap ? { overCap: overCap as OverCap } : {}),
      });
      const event = decision.events.at(-1)!;
      const said = `${String(event.payload.name)} (${(event.payload.players as string[]).join(' & ')})`;
      const raised = decision.events[0]!.type === 'SignUpOpened' ? ` The cap is now ${String(decision.events[0]!.payload.cap)}.` : '';
      return { decision, done: event.type === 'TeamWaitlisted' ? `Put ${said} on the waitlist.` : `Registered ${said}.${raised}` };
    });
  });

  app.post('/tournaments/:tournamentId/check-in', (c) =>
    onTournament(c, 'check-in', (input, session) => {
      const tournamentId = tournamentIdOf(c);
      const { teamId } = parseFields(input, TeamChoice);
      return {
        decision: checkInTeam(models, { tournamentId, teamId, at: now(), by: session.name }),
        done: `${entrantWord(tournamentId)} ${entrantName(models, tournamentId, teamId)} checked in.`,
      };
    }),
  );

  startRoutes(app, { models, onTournament, show });
  registrationRoutes(app, { models, ledger, auth, now, onTournament, show });

  app.post('/tournaments/:tournamentId/screen', (c) =>
    onTournament(c, 'pin-screen', () => {
      const tournamentId = tournamentIdOf(c);
      return { decision: pinScreen(models, { tournamentId }), done: `/screen now shows ${tournamentById(models, tournamentId)!.model.name}.` };
    }),
  );

  progressiveRoutes(app, models, onTournament, show, now);
  partnerRoutes(app, { models, onTournament, show });
  seatingRoutes(app, { models, now, onTournament });
  codeRoutes(app, { models, auth, now, publicUrl: options.publicUrl });

  return app;
}

/** The format a refused form was typed for, when it is one; the first offered otherwise. */
const typedFormat = (typed: Record<string, unknown> | undefined): string =>
  FORMAT_CHOICES.includes(String(typed?.format)) ? String(typed!.format) : FORMAT_CHOICES[0]!;

/** The rulebook values the create form shows for a format. */
function pick({ gamesToWin, clockMinutes, finalClockMinutes, clockPer }: FormatOptions) {
  return { gamesToWin, clockMinutes, finalClockMinutes, clockPer };
}
