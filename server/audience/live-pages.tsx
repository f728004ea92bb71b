/**
 * The live pages, rendered whole on request: the home page's list, the venue screen (a
 * tournament's own, and the one a director pinned to `/screen`), a tournament's home, standings
 * and bracket, and a table. What each page's stream carries afterwards is in app/live-channels.tsx,
 * which renders the same components again with the helpers exported here.
 */
import type { ReadModels } from '../../events/projections.ts';
import type { GameModel, MatchModel, TournamentModel } from '../../events/read-models.ts';
import { asOfLink } from '../../views/as-of.tsx';
import { Bracket } from '../../views/bracket.tsx';
import { Layout } from '../../views/layout.tsx';
import { Leaderboard } from '../../views/leaderboard.tsx';
import { LIVE_TABLES_ID, LiveTables, SCREEN_PIN_ID, Screen, type ScreenRules, TICKER_ID, Ticker, screenBracket, screenColumns } from '../../views/screen.tsx';
import { rulesSheet } from '../../engine/rules-sheet.ts';
import { TournamentList } from '../../views/home.tsx';
import { pinnedTournament } from '../../events/screen-pin.ts';
import { gameInPlay, gameUndoing } from '../../events/reopening.ts';
import { TableView } from '../../views/table.tsx';
import { TournamentHome } from '../../views/tournament-home.tsx';
import { eventKindName, rulebookName } from '../../engine/structures.ts';
import { BRACKET_ID } from '../../views/bracket.tsx';
import { LEADERBOARD_ID } from '../../views/leaderboard.tsx';
import { gameById, tournamentById, teamNames } from '../../events/lookup.ts';
import type { Child } from 'hono/jsx';
import { statsOfTournament } from '../../events/tournament-stats.ts';
import { HIGHLIGHTS_ID, HighlightsPanel } from '../../views/stats.tsx';
import {
  INDIVIDUAL_ID,
  IndividualStandings,
  WHERE_TO_SIT_ID,
  WhereToSit,
  individualColumns,
  playerStandings,
  progressiveView,
} from '../../views/progressive-panels.tsx';
import { ProgressiveScreen } from '../../views/progressive-screen.tsx';
import { type SubjectView, renderSubjectPage } from './team-pages.tsx';
import { signUpOpenAt } from '../commands/registration-commands.ts';
import { SignUpCard } from '../../views/sign-up-page.tsx';
import { tournamentLinks } from '../../events/addresses.ts';
import { EventTrail } from '../../views/rules-sheet.tsx';
import { bracketProps, playoffOf, screenRounds } from './bracket-props.tsx';

export { bracketProps, playoffOf } from './bracket-props.tsx';
import { LEAGUE_ROUNDS_ID, RoundPairings } from '../../views/league-table.tsx';
import { leagueRoundsOf, roundsInPlaceOfBracket, secondChancePanelOf } from './standings-parts.tsx';

export type LiveView =
  | { kind: 'home'; channel: string }
  /** The venue's `/screen` address: the screen of the tournament a director pinned. */
  | { kind: 'pinned'; channel: string }
  /** The judge console's signal: each judge's page fetches its own console when it changes. */
  | { kind: 'judge'; channel: string }
  | { kind: 'screen' | 'tournament' | 'leaderboard' | 'bracket'; tournamentId: string; channel: string; venue?: boolean }
  | { kind: 'table'; gameId: string; channel: string }
  /** A team's own page, or a progressive player's. */
  | SubjectView;

export { teamNames };

/** The game in play at each live table of a tournament, by table. */
function liveGames(models: ReadModels, tournament: TournamentModel): GameModel[] {
  return (
    tournament.matches
      .filter((m) => m.status === 'live' && m.games.length > 0)
      .sort((a, b) => (a.table ?? 0) - (b.table ?? 0))
      // A game a ruling reopened is the one in play at its table, before the match's later games.
      .map((m) => gameInPlay(m, models.games) ?? gameById(models, m.games[m.games.length - 1]!))
      .filter((g): g is GameModel => Boolean(g))
  );
}

/** The tournament and the match a game is played in, when it is part of one. */
export function gamePlace(models: ReadModels, game: GameModel): { tournament: TournamentModel | undefined; match: MatchModel | undefined } {
  const tournament = game.tournamentId ? tournamentById(models, game.tournamentId)?.model : undefined;
  return { tournament, match: tournament?.matches.find((m) => m.matchId === game.matchId) };
}

/** The address a page's stream lives at. */
function streamUrl(view: LiveView, models: ReadModels, tournamentId?: string): string {
  const after = `?after=${models.position}`;
  switch (view.kind) {
    case 'home':
      return `/stream${after}`;
    case 'pinned':
      return `/screen/stream${after}`;
    case 'judge':
      return `/judge/stream${after}`;
    case 'screen':
      // `/screen?t=<id>`: the venue's address held to one tournament, its stream too.
      if (view.venue) return `/screen/stream?t=${encodeURIComponent(view.tournamentId)}&after=${models.position}`;
      return `${tournamentLinks(view.tournamentId).screen}/stream${after}`;
    case 'tournament':
      return `${tournamentLinks(view.tournamentId).home}/stream${after}`;
    case 'leaderboard':
      return `${tournamentLinks(view.tournamentId).leaderboard}/stream${after}`;
    case 'bracket':
      return `${tournamentLinks(view.tournamentId).bracket}/stream${after}`;
    case 'table':
      return tournamentId ? `${tournamentLinks(tournamentId).game(view.gameId)}/stream${after}` : `/games/${encodeURIComponent(view.gameId)}/stream${after}`;
    case 'team':
    case 'player':
      return `${tournamentLinks(view.tournamentId).home}/${view.kind}s/${encodeURIComponent(view.subjectId)}/stream${after}`;
    default: {
      const _exhaustive: never = view;
      return _exhaustive;
    }
  }
}

/** Where and when a page is asked for: the address phones reach (for QR codes) and the time. */
export interface PageContext {
  origin: string;
  now: string;
}
/** The venue screen's own script: the highlights panel's turn. */
const SCREEN_SCRIPTS = ['/static/screen-highlights.js'];

/** The whole page for a view, or null when what it shows does not exist. */
export function renderLivePage(view: LiveView, models: ReadModels, context?: PageContext): string | null {
  if (view.kind === 'home') {
    return html(
      <Layout title="Spades tournaments" live={{ url: streamUrl(view, models) }}>
        <TournamentList
          tournaments={Object.values(models.tournaments).map((t) => t.model)}
          onScreen={pinnedTournament(models)}
          kinds={Object.fromEntries(Object.values(models.tournaments).map((t) => [t.model.tournamentId, eventKindName(t.model.format, t.format)]))}
        />
      </Layout>,
    );
  }
  // The console is each judge's own (their session's forms): the judge routes render it.
  if (view.kind === 'judge') return null;
  if (view.kind === 'team' || view.kind === 'player') return renderSubjectPage(view, models, context?.now);
  if (view.kind === 'pinned') {
    const pinned = pinnedTournament(models);
    const tournament = pinned ? tournamentById(models, pinned)?.model : undefined;
    if (!pinned || !tournament) return null;
    return html(
      <Layout title={`${tournament.name} · screen`} screen live={{ url: streamUrl(view, models) }} scripts={SCREEN_SCRIPTS}>
        <ScreenPin tournamentId={pinned} />
        {screenOf(models, tournament, context?.now)}
        {signUpCardOf(models, tournament, context)}
      </Layout>,
    );
  }
  if (view.kind === 'table') {
    const game = gameById(models, view.gameId);
    if (!game) return null;
    const { tournament, match } = gamePlace(models, game);
    return html(
      <Layout title={`Table ${match?.table ?? ''} · ${game.gameId}`} live={{ url: streamUrl(view, models, game.tournamentId ?? undefined) }}>
        {tournament ? <EventTrail tournamentId={tournament.tournamentId} name={tournament.name} /> : null}
        <TableView
          game={game}
          teamNames={teamNames(tournament)}
          clock={match?.clock ?? null}
          round={match?.side === 'table' ? match.round : null}
          undoing={gameUndoing(models, game)}
        />
        <p class="exports">
          <a href={`/games/${encodeURIComponent(game.gameId)}/record`}>Download this game as a spades-game/1 record</a>
          {' · '}
          <a href="/verify">Verify the ledger</a>
        </p>
      </Layout>,
    );
  }
  const tournament = tournamentById(models, view.tournamentId)?.model;
  if (!tournament) return null;
  const live = { url: streamUrl(view, models) };
  switch (view.kind) {
    case 'screen':
      return html(
        <Layout title={`${tournament.name} · screen`} screen live={live} scripts={SCREEN_SCRIPTS}>
          {screenOf(models, tournament, context?.now)}
          {signUpCardOf(models, tournament, context)}
        </Layout>,
      );
    case 'tournament':
      return html(
        <Layout title={tournament.name} live={live}>
          {signUpLinkOf(models, tournament, context)}
          <div id="tournament-home">
            <TournamentHome
              tournament={tournament}
              stats={statsOfTournament(models, tournament.tournamentId)}
              kind={eventKindName(tournament.format, tournamentById(models, tournament.tournamentId)!.format)}
            />
          </div>
        </Layout>,
      );
    case 'leaderboard':
      return html(
        <Layout title={`${tournament.name} · standings`} live={live}>
          <EventTrail tournamentId={tournament.tournamentId} name={tournament.name} />
          <h1>{tournament.name}</h1>
          {progressiveSeatingOf(models, tournament)}
          <Leaderboard tournament={tournament} standings={playerStandings(tournamentById(models, tournament.tournamentId)!)} />
          {progressiveOf(models, tournament)}
          {leagueRoundsOf(models, tournament)}
          {secondChancePanelOf(tournament)}
          {playoffOf(models, tournament)}
          <p class="exports">
            <a href={`${tournamentLinks(tournament.tournamentId).home}/standings.csv`}>Download the standings as CSV</a>
            {' · '}
            <a href={asOfLink(tournament.tournamentId)}>Standings and bracket as of an earlier moment</a>
          </p>
        </Layout>,
      );
    case 'bracket':
      return html(
        <Layout title={`${tournament.name} · bracket`} live={live}>
          <h1>{tournament.name}</h1>
          {roundsInPlaceOfBracket(models, tournament) ?? <Bracket {...bracketProps(models, tournament)} />}
          <p class="exports">
            <a href={tournamentLinks(tournament.tournamentId).rules}>Rules in force</a>
            {' · '}
            <a href={asOfLink(tournament.tournamentId)}>The bracket as of an earlier moment</a>
          </p>
        </Layout>,
      );
    default: {
      const _exhaustive: never = view;
      return _exhaustive;
    }
  }
}

/** The venue screen of a tournament, as its page and the pinned `/screen` render it. */
function screenOf(models: ReadModels, tournament: TournamentModel, now?: string) {
  const view = progressiveView(tournamentById(models, tournament.tournamentId)!, models.games);
  const highlights = statsOfTournament(models, tournament.tournamentId)?.highlights ?? [];
  if (view)
    return (
      <ProgressiveScreen
        tournament={tournament}
        view={view}
        liveGames={liveGames(models, tournament)}
        teamNames={teamNames(tournament)}
        highlights={highlights}
      />
    );
  return (
    <Screen
      {...bracketProps(models, tournament)}
      liveGames={liveGames(models, tournament)}
      teamNames={teamNames(tournament)}
      highlights={highlights}
      rules={screenRules(models, tournament)}
      rounds={screenRounds(tournamentById(models, tournament.tournamentId)!)}
      {...(now ? { now: new Date(now) } : {})}
    />
  );
}

/** The sign-up link and its QR code while the tournament takes sign-ups; nothing otherwise. */
function signUpCardOf(models: ReadModels, tournament: TournamentModel, context: PageContext | undefined) {
  const state = tournamentById(models, tournament.tournamentId);
  if (!context || !state || !signUpOpenAt(state, context.now).open) return null;
  return <SignUpCard link={`${context.origin}/tournaments/${encodeURIComponent(tournament.tournamentId)}/sign-up`} name={tournament.name} screen />;
}

/** A link to sign up, on the tournament's page while it takes sign-ups. */
function signUpLinkOf(models: ReadModels, tournament: TournamentModel, context: PageContext | undefined) {
  const state = tournamentById(models, tournament.tournamentId);
  if (!context || !state || !signUpOpenAt(state, context.now).open) return null;
  return (
    <p class="notice notice--done" data-sign-up>
      Sign-up is open: <a href={`${tournamentLinks(tournament.tournamentId).home}/sign-up`}>sign up for {tournament.name}</a>
    </p>
  );
}

/** The live regions of a tournament's venue screen. */
export function screenPartials(add: (target: string, content: Child) => void, models: ReadModels, tournament: TournamentModel): void {
  add(TICKER_ID, <Ticker tournament={tournament} />);
  add(HIGHLIGHTS_ID, <HighlightsPanel highlights={statsOfTournament(models, tournament.tournamentId)?.highlights ?? []} />);
  const view = progressiveView(tournamentById(models, tournament.tournamentId)!, models.games);
  if (view) {
    add(WHERE_TO_SIT_ID, <WhereToSit view={view} />);
    add(INDIVIDUAL_ID, <IndividualStandings view={view} columns={individualColumns(view.standings.length)} />);
    add(LIVE_TABLES_ID, <LiveTables tournament={tournament} liveGames={liveGames(models, tournament)} teamNames={teamNames(tournament)} />);
    return;
  }
  add(LEADERBOARD_ID, <Leaderboard tournament={tournament} columns={screenColumns(tournament)} />);
  const bracket = bracketProps(models, tournament);
  const rounds = screenRounds(tournamentById(models, tournament.tournamentId)!);
  if (rounds) add(LEAGUE_ROUNDS_ID, <RoundPairings rounds={rounds} names={teamNames(tournament)} gamesToWin={bracket.gamesToWin} screen />);
  else add(BRACKET_ID, <Bracket {...bracket} fit={screenBracket(tournament)} />);
  add(
    LIVE_TABLES_ID,
    <LiveTables
      tournament={tournament}
      liveGames={liveGames(models, tournament)}
      teamNames={teamNames(tournament)}
      gamesToWin={bracket.gamesToWin}
      rules={screenRules(models, tournament)}
    />,
  );
}

/** Before the start, the rules in force for the screen's turn that will show the live tables. */
function screenRules(models: ReadModels, tournament: TournamentModel): ScreenRules | undefined {
  if (tournament.status !== 'registration') return undefined;
  const state = tournamentById(models, tournament.tournamentId)!;
  return {
    sheet: rulesSheet(tournament.format, state.format),
    rulebook: rulebookName(tournament.format, state.format),
    address: tournamentLinks(tournament.tournamentId).rules,
  };
}

/** A progressive evening's "where to sit" list, each name leading to the player's page; nothing for a bracket event. */
export function progressiveSeatingOf(models: ReadModels, tournament: TournamentModel) {
  const view = progressiveView(tournamentById(models, tournament.tournamentId)!, models.games);
  return view ? <WhereToSit view={view} tournamentId={tournament.tournamentId} /> : null;
}

/** A progressive evening's individual standings, round by round, under the totals; nothing for a bracket event. */
export function progressiveOf(models: ReadModels, tournament: TournamentModel) {
  const view = progressiveView(tournamentById(models, tournament.tournamentId)!, models.games);
  return view ? <IndividualStandings view={view} tournamentId={tournament.tournamentId} /> : null;
}

/** The marker of the tournament `/screen` shows. */
export function ScreenPin({ tournamentId }: { tournamentId: string }) {
  return <span id={SCREEN_PIN_ID} hidden data-tournament={tournamentId}></span>;
}

/** A rendered component as its HTML. */
export function html(node: unknown): string {
  return String(node);
}
