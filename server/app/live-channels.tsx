/**
 * What a live page's stream carries. Every page's clients share a channel; for every ledger
 * event that touches a page, its live regions are rendered again (the same components the whole
 * page is drawn with, in audience/live-pages.tsx) wrapped in partials, once for all its clients, and
 * only the regions that changed are sent.
 */
import type { Child } from 'hono/jsx';
import { statsOfTournament } from '../../events/tournament-stats.ts';
import type { Change, ReadModels } from '../../events/projections.ts';
import { Bracket, BRACKET_ID } from '../../views/bracket.tsx';
import { LEADERBOARD_ID, Leaderboard } from '../../views/leaderboard.tsx';
import { Partial } from '../../views/partials.tsx';
import { SCREEN_PIN_ID } from '../../views/screen.tsx';
import { TOURNAMENT_LIST_ID, TournamentList } from '../../views/home.tsx';
import { eventKindName } from '../../engine/structures.ts';
import { pinnedTournament } from '../../events/screen-pin.ts';
import { JUDGE_SIGNAL_ID, JudgeSignal } from '../../views/judge-console.tsx';
import { judgeVersion } from '../judge/judge-console-model.ts';
import { gameUndoing } from '../../events/reopening.ts';
import { TableView, tableId } from '../../views/table.tsx';
import { TournamentHome } from '../../views/tournament-home.tsx';
import { type Broadcaster, type SseSink, encodeSse } from '../live/sse.ts';
import { gameById, tournamentById } from '../../events/lookup.ts';
import { ScreenPin, bracketProps, gamePlace, html, progressiveOf, progressiveSeatingOf, screenPartials, teamNames } from '../audience/live-pages.tsx';
import { SECOND_CHANCE_ID } from '../../views/second-chance.tsx';
import { leagueRoundsOf, roundsInPlaceOfBracket, secondChancePanelOf } from '../audience/standings-parts.tsx';
import { playoffOf } from '../audience/bracket-props.tsx';
import { LEAGUE_ROUNDS_ID } from '../../views/league-table.tsx';
import { INDIVIDUAL_ID, WHERE_TO_SIT_ID, playerStandings } from '../../views/progressive-panels.tsx';
import { subjectPartials, subjectTournament } from '../audience/team-pages.tsx';

const LIVE_KINDS = ['home', 'pinned', 'judge', 'screen', 'tournament', 'leaderboard', 'bracket', 'table', 'team', 'player'] as const;
export type LiveKind = (typeof LIVE_KINDS)[number];
const LIVE_KIND_SET: ReadonlySet<string> = new Set(LIVE_KINDS);

/** The channel a page's clients share. */
export function channelOf(kind: LiveKind, id = ''): string {
  return `${kind}:${id}`;
}

function parseChannel(channel: string): { kind: LiveKind; id: string } | null {
  const at = channel.indexOf(':');
  if (at < 0) return null;
  // Other channels share the broadcaster (one tournament's event feed, `events:<id>`): they have no page regions.
  const kind = channel.slice(0, at);
  return LIVE_KIND_SET.has(kind) ? { kind: kind as LiveKind, id: channel.slice(at + 1) } : null;
}

/** The channels among `channels` whose page an event's change touches. */
export function liveChannels(channels: readonly string[], change: Change, models: ReadModels): string[] {
  if (change.games.length === 0 && change.tournaments.length === 0) return [];
  const touchedTournaments = new Set(change.tournaments);
  for (const gameId of change.games) {
    const t = gameById(models, gameId)?.tournamentId;
    if (t) touchedTournaments.add(t);
  }
  return channels.filter((channel) => {
    const parsed = parseChannel(channel);
    if (!parsed) return false;
    if (parsed.kind === 'table') return change.games.includes(parsed.id);
    if (parsed.kind === 'home') return change.tournaments.length > 0;
    // Which tournament is pinned may itself have changed: its regions are compared before sending.
    if (parsed.kind === 'pinned') return touchedTournaments.size > 0;
    // The console's digest is compared before sending: most entries leave it as it was.
    if (parsed.kind === 'judge') return true;
    // A team's or player's page follows its tournament: its region is compared before sending.
    if (parsed.kind === 'team' || parsed.kind === 'player') return touchedTournaments.has(subjectTournament(parsed.id) ?? '');
    return touchedTournaments.has(parsed.id);
  });
}

/**
 * A channel's live regions, each as the `<hx-partial>` block that replaces it, keyed by the id
 * of the element it replaces; null when the channel names nothing that exists.
 */
export function livePartials(channel: string, models: ReadModels): Map<string, string> | null {
  const parsed = parseChannel(channel);
  if (!parsed) return null;
  const partials = new Map<string, string>();
  const add = (target: string, content: Child) => partials.set(target, html(<Partial target={target}>{content}</Partial>));
  if (parsed.kind === 'table') {
    const game = gameById(models, parsed.id);
    if (!game) return null;
    const { tournament, match } = gamePlace(models, game);
    add(
      tableId(game.gameId),
      <TableView
        game={game}
        teamNames={teamNames(tournament)}
        clock={match?.clock ?? null}
        round={match?.side === 'table' ? match.round : null}
        undoing={gameUndoing(models, game)}
      />,
    );
    return partials;
  }
  if (parsed.kind === 'home') {
    add(
      TOURNAMENT_LIST_ID,
      <TournamentList
        tournaments={Object.values(models.tournaments).map((t) => t.model)}
        onScreen={pinnedTournament(models)}
        kinds={Object.fromEntries(Object.values(models.tournaments).map((t) => [t.model.tournamentId, eventKindName(t.model.format, t.format)]))}
      />,
    );
    return partials;
  }
  if (parsed.kind === 'judge') {
    add(JUDGE_SIGNAL_ID, <JudgeSignal version={judgeVersion(models)} />);
    return partials;
  }
  if (parsed.kind === 'team' || parsed.kind === 'player') return subjectPartials(parsed.kind, parsed.id, models, add) ? partials : null;
  if (parsed.kind === 'pinned') {
    const pinned = pinnedTournament(models);
    const tournament = pinned ? tournamentById(models, pinned)?.model : undefined;
    if (!pinned || !tournament) return null;
    // A page showing another tournament than the one now pinned reloads when this changes.
    add(SCREEN_PIN_ID, <ScreenPin tournamentId={pinned} />);
    screenPartials(add, models, tournament);
    return partials;
  }
  const tournament = tournamentById(models, parsed.id)?.model;
  if (!tournament) return null;
  const leaderboard = () => {
    add(LEADERBOARD_ID, <Leaderboard tournament={tournament} standings={playerStandings(tournamentById(models, tournament.tournamentId)!)} />);
    const individual = progressiveOf(models, tournament);
    if (individual) add(INDIVIDUAL_ID, individual);
    const seating = progressiveSeatingOf(models, tournament);
    if (seating) add(WHERE_TO_SIT_ID, seating);
    const rounds = leagueRoundsOf(models, tournament);
    if (rounds) add(LEAGUE_ROUNDS_ID, rounds);
    const chance = secondChancePanelOf(tournament);
    if (chance) add(SECOND_CHANCE_ID, chance);
    const playoff = playoffOf(models, tournament);
    if (playoff) add(BRACKET_ID, playoff);
  };
  // The screen shows its window onto the bracket, the page the whole of it: same component, same props as the full render.
  const bracket = () => {
    // A league without a bracket shows its rounds on the bracket's page.
    const rounds = roundsInPlaceOfBracket(models, tournament);
    if (rounds) add(LEAGUE_ROUNDS_ID, rounds);
    else add(BRACKET_ID, <Bracket {...bracketProps(models, tournament)} />);
  };
  switch (parsed.kind) {
    case 'screen':
      screenPartials(add, models, tournament);
      break;
    case 'leaderboard':
      leaderboard();
      break;
    case 'bracket':
      bracket();
      break;
    case 'tournament':
      add(
        'tournament-home',
        <div id="tournament-home">
          <TournamentHome tournament={tournament} stats={statsOfTournament(models, tournament.tournamentId)} />
        </div>,
      );
      break;
    default: {
      const _exhaustive: never = parsed.kind;
      return _exhaustive;
    }
  }
  return partials;
}

/** One SSE message carrying the given partials, with the ledger position as its id. */
function partialsMessage(partials: Iterable<string>, position: number): Uint8Array {
  return encodeSse({ id: position, data: [...partials].join('') });
}

/**
 * The SSE message for a channel with every one of its live regions: what a page that may have
 * missed events (a reconnecting screen, or one rendered before the latest event) is sent.
 */
export function renderLiveUpdate(channel: string, models: ReadModels, position: number): Uint8Array | null {
  const partials = livePartials(channel, models);
  if (!partials || partials.size === 0) return null;
  return partialsMessage(partials.values(), position);
}

/** What the live publisher needs of the broadcaster. */
type LiveBroadcaster = Pick<Broadcaster, 'attach' | 'channels' | 'drop' | 'hasClients' | 'publish'>;

export interface LivePublisher {
  /** Hears a ledger change (what `ledger.onChange` reports). */
  changed(change: Change): void;
  /**
   * Attaches a page's stream to its channel. A page rendered before the latest event (or
   * resuming after a drop or a restart, from its Last-Event-ID) is first sent all its regions.
   */
  attach(channel: string, sink: SseSink, after: number): void;
}

/**
 * Turns ledger changes into page updates. Two things keep the room's screens steady:
 *
 * - Changes are gathered until the current burst of appends is over (one microtask), then
 *   each touched channel is rendered once at the latest position. A scorekeeper's entry at
 *   every table lands as one burst; a message per event would repeat whole regions that the
 *   next message replaces anyway, and could fill a screen's bounded buffer for nothing.
 * - A message carries only the regions whose HTML changed since what the channel's clients
 *   show: each of them was sent every earlier message, or all regions as of the latest
 *   position when it attached. An unchanged region is left alone in the page, so the results
 *   ticker keeps stepping through them instead of restarting at every card played.
 */
export function createLivePublisher(broadcaster: LiveBroadcaster, models: ReadModels): LivePublisher {
  const shown = new Map<string, Map<string, string>>();
  const dirty = new Set<string>();
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const position = models.position;
    for (const channel of dirty) {
      let partials: Map<string, string> | null;
      try {
        partials = livePartials(channel, models);
      } catch (error) {
        // A page whose regions cannot be drawn: its clients are closed and forgotten (a browser
        // reconnects, and is closed again at once while the fault lasts), the other pages go on.
        console.error(`the live page '${channel}' failed to draw and its streams were closed:`, error);
        shown.delete(channel);
        broadcaster.drop(channel);
        continue;
      }
      if (!partials) {
        shown.delete(channel);
        continue;
      }
      const previous = shown.get(channel);
      const changed = [...partials].filter(([target, block]) => previous?.get(target) !== block).map(([, block]) => block);
      shown.set(channel, partials);
      if (changed.length > 0) broadcaster.publish(channel, partialsMessage(changed, position));
    }
    dirty.clear();
  }

  return {
    changed(change) {
      const known = new Set([...broadcaster.channels(), ...shown.keys()]);
      for (const channel of liveChannels([...known], change, models)) {
        // A channel nobody watches forgets what it showed; its next client sets it afresh.
        if (broadcaster.hasClients(channel)) dirty.add(channel);
        else shown.delete(channel);
      }
      if (dirty.size > 0 && !scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    },
    attach(channel, sink, after) {
      const behind = after < models.position;
      if (behind || !shown.has(channel)) {
        const partials = livePartials(channel, models);
        if (partials && !dirty.has(channel) && !shown.has(channel)) shown.set(channel, partials);
        if (behind && partials && partials.size > 0 && !sink.write(partialsMessage(partials.values(), models.position))) {
          sink.close();
          return;
        }
      }
      broadcaster.attach(channel, sink);
    },
  };
}
