/**
 * A team's own page (`/tournaments/:tournamentId/teams/:teamId`) and a progressive player's
 * (`/tournaments/:tournamentId/players/:playerId`): rendered whole here for the page, and as the
 * one region their live channel carries (app/live-channels.tsx calls `subjectPartials`).
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import type { Child } from 'hono/jsx';
import type { ReadModels } from '../../events/projections.ts';
import { tournamentById } from '../../events/lookup.ts';
import { Layout } from '../../views/layout.tsx';
import { PLAYER_STATUS_ID, PlayerStatus, TEAM_STATUS_ID, TeamStatus } from '../../views/team-page.tsx';
import { type PlayerPageModel, type TeamPageModel, playerPageModel, teamPageModel } from '../../views/team-page-model.ts';
import { CheckInForm, OwnCode, waitlistWords } from '../../views/sign-up-page.tsx';
import { Notice } from '../../views/entry-forms.tsx';
import { waitingList } from '../commands/registration-commands.ts';
import { tournamentLinks, playerLink, teamLink } from '../../events/addresses.ts';
import { EventTrail } from '../../views/rules-sheet.tsx';
import { type DrawnPlayerModel, DrawnPlayerStatus, drawnPlayerModel } from '../../views/drawn-player.tsx';
import { registersAlone } from '../../engine/format-play.ts';

export type SubjectKind = 'team' | 'player';

/** A team's or a player's page, by the tournament and the id (a union, so a kind narrows it). */
export type SubjectView = { [K in SubjectKind]: { kind: K; tournamentId: string; subjectId: string; channel: string } }[SubjectKind];

/** The id part of a team's or player's channel: both ids, so neither may hold what parts them. */
export function subjectChannelId(tournamentId: string, subjectId: string): string {
  return JSON.stringify([tournamentId, subjectId]);
}

/** The tournament and the subject a channel id names; null when it is not one. */
export function parseSubjectChannelId(id: string): { tournamentId: string; subjectId: string } | null {
  try {
    const parsed: unknown = JSON.parse(id);
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((x) => typeof x === 'string')) return { tournamentId: parsed[0], subjectId: parsed[1] };
  } catch {
    // not a subject's channel
  }
  return null;
}

function modelOf(
  kind: SubjectKind,
  models: ReadModels,
  tournamentId: string,
  subjectId: string,
  now: string = new Date().toISOString(),
): TeamPageModel | PlayerPageModel | DrawnPlayerModel | null {
  const state = tournamentById(models, tournamentId);
  if (!state) return null;
  // A player registered alone for a team structure: who the draw partnered them with.
  if (kind === 'player' && state.partners) return drawnPlayerModel(state, models.games, subjectId, now);
  return kind === 'team' ? teamPageModel(state, models.games, subjectId, now) : playerPageModel(state, models.games, subjectId);
}

/** The region of a team's or player's page, or null when the tournament holds no such team or player. */
function statusOf(
  kind: SubjectKind,
  models: ReadModels,
  tournamentId: string,
  subjectId: string,
  now?: string,
): { target: string; content: Child; name: string; tournamentName: string } | null {
  const model = modelOf(kind, models, tournamentId, subjectId, now);
  if (!model) return null;
  if ('teamId' in model) return { target: TEAM_STATUS_ID, content: <TeamStatus model={model} />, name: model.name, tournamentName: model.tournamentName };
  if ('headline' in model)
    return { target: PLAYER_STATUS_ID, content: <DrawnPlayerStatus model={model} />, name: model.name, tournamentName: model.tournamentName };
  return { target: PLAYER_STATUS_ID, content: <PlayerStatus model={model} />, name: model.name, tournamentName: model.tournamentName };
}

/** What a team's or player's page names that the ledger does not hold, as a sentence; null when it exists. */
export function missingSubjectOf(view: SubjectView, models: ReadModels): string | null {
  const state = tournamentById(models, view.tournamentId);
  if (!state) return `tournament ${view.tournamentId} does not exist`;
  if (modelOf(view.kind, models, view.tournamentId, view.subjectId)) return null;
  if (view.kind === 'team' && state.partners && !state.partners.draw && drawnPlayerModel(state, models.games, view.subjectId)) {
    return `players register alone for ${state.model.name} and their partners are not drawn yet: ${view.subjectId}'s page is ${playerLink(view.tournamentId, view.subjectId)}`;
  }
  if (view.kind === 'team' && seatedAtTables(state.format) && playerPageModel(state, models.games, view.subjectId)) {
    return `${state.model.name} is a progressive evening of players: ${view.subjectId}'s page is ${playerLink(view.tournamentId, view.subjectId)}`;
  }
  if (view.kind === 'player' && !registersAlone(state.format))
    return `${state.model.name} is played by teams, not single players: a team's page is under ${tournamentLinks(view.tournamentId).home}/teams/`;
  return `${state.model.name} has no ${view.kind} ${view.subjectId}`;
}

/** The live region of a team's or player's channel. */
export function subjectPartials(kind: SubjectKind, id: string, models: ReadModels, add: (target: string, content: Child) => void): boolean {
  const subject = parseSubjectChannelId(id);
  if (!subject) return false;
  const status = statusOf(kind, models, subject.tournamentId, subject.subjectId);
  if (!status) return false;
  add(status.target, status.content);
  return true;
}

/** The tournament a team's or player's channel follows; null when it is not one. */
export function subjectTournament(id: string): string | null {
  return parseSubjectChannelId(id)?.tournamentId ?? null;
}

/** What a team's page adds for the phone that asks: its own check-in code, a refusal of its "We're here". */
export interface SubjectExtras {
  /** The check-in code, shown to the phone that signed the entrant up. */
  code?: string | null;
  /** Why the last "We're here" was refused, beside the form to try again. */
  error?: string | null;
}

/** The whole page, or null when the tournament holds no such team or player. */
export function renderSubjectPage(view: SubjectView, models: ReadModels, now?: string, extras: SubjectExtras = {}): string | null {
  const status = statusOf(view.kind, models, view.tournamentId, view.subjectId, now);
  const self = view.kind === 'team' ? teamLink(view.tournamentId, view.subjectId) : playerLink(view.tournamentId, view.subjectId);
  const state = tournamentById(models, view.tournamentId);
  const queued = state ? waitingList(state).findIndex((w) => w.teamId === view.subjectId) : -1;
  const code = extras.code ? <OwnCode code={extras.code} /> : null;
  const notice = <Notice error={extras.error ?? null} />;
  if (!status && state && queued >= 0) {
    const entry = waitingList(state)[queued]!;
    const before = state.model.status === 'registration';
    const here = state.checkedIn.includes(entry.teamId);
    return String(
      <Layout title={`${entry.name} · ${state.model.name}`}>
        <EventTrail tournamentId={view.tournamentId} name={state.model.name} />
        {before ? (
          <>
            <h1 data-waitlisted={queued + 1}>
              {entry.name}: on the waitlist, number {queued + 1}
            </h1>
            {notice}
            <p>{waitlistWords(here)}</p>
            {code}
            {here ? null : <CheckInForm action={`${self}/check-in`} name={entry.name} />}
          </>
        ) : (
          <>
            <h1 data-started-without>{entry.name}: no place this time</h1>
            {notice}
            <p>
              {state.model.name} has started without you: no place freed up for the waitlist before the start. Thank you for signing up; the director can tell
              you of the next event.
            </p>
          </>
        )}
      </Layout>,
    );
  }
  if (!status || !state) return null;
  const links = tournamentLinks(view.tournamentId);
  // Before the start a registered entrant that has not checked in may do it here with its code.
  const canCheckIn = state.model.status === 'registration' && !state.withdrawn.includes(view.subjectId) && !state.checkedIn.includes(view.subjectId);
  return String(
    <Layout title={`${status.name} · ${status.tournamentName}`} live={{ url: `${self}/stream?after=${models.position}` }}>
      <EventTrail tournamentId={view.tournamentId} name={status.tournamentName} />
      {notice}
      {canCheckIn ? <CheckInForm action={`${self}/check-in`} name={status.name} /> : null}
      {canCheckIn ? code : null}
      {status.content}
      {state.model.status === 'registration' && state.checkedIn.includes(view.subjectId) ? (
        <p class="notice notice--done" data-checked-in>
          {status.name} is checked in{state.registration.checkedInBy[view.subjectId] === 'team' ? ' (by the team, with its code)' : ''}.
        </p>
      ) : null}
      <p class="tournament-nav team-page-nav">
        <a href={links.leaderboard}>Standings</a>
        {view.kind === 'team' ? (
          <>
            {' · '}
            <a href={links.bracket}>Bracket</a>
          </>
        ) : null}
      </p>
    </Layout>,
  );
}
