/**
 * A tournament's front page: what it is, where it stands, and the way to every view of it.
 */
import type { FormatId } from '../events/event-catalogue.ts';
import type { TournamentModel } from '../events/read-models.ts';
import { newsText } from './news.ts';
import type { TournamentStatsPayload } from '../events/stats-schema.ts';
import { TournamentStatsSection } from './stats.tsx';
import { tournamentLinks } from '../events/addresses.ts';

/** Each format's name as the room knows it. */
export const FORMAT_NAMES: Record<FormatId, string> = {
  'blp-2024': 'BLP 2024',
  'unc-intramural': 'UNC intramural',
  'pitt-boss': 'Pitt Boss',
  'asher-theatre': 'Asher Theatre',
  'tournament-spades': 'Tournament Spades',
  custom: 'Custom rules',
};

/** A tournament's status in words. */
export const STATUS_NAMES: Record<TournamentModel['status'], string> = {
  registration: 'Registration open',
  running: 'In play',
  finished: 'Finished',
};

export interface TournamentHomeProps {
  tournament: TournamentModel;
  /** The statistics section, once a game has been started. */
  stats?: TournamentStatsPayload | undefined;
  /** What the event is, in words, where its format alone does not say it (a structure chosen apart from its rules). */
  kind?: string | undefined;
}

/** Name, format and status of a tournament, with links to its leaderboard, bracket, screen and live tables. */
export function TournamentHome({ tournament, stats, kind }: TournamentHomeProps) {
  const links = tournamentLinks(tournament.tournamentId);
  const names = new Map(tournament.teams.map((t) => [t.teamId, t.name]));
  const one = (id: string) => names.get(id) ?? id;
  // A progressive table's side is a pair of players for the round, `a+b`.
  const teamName = (id: string | null) => (id === null ? 'TBD' : id.includes('+') && !names.has(id) ? id.split('+').map(one).join(' & ') : one(id));
  // The game in progress of a live match is its latest one.
  const live = tournament.matches.filter((m) => m.status === 'live' && m.games.length > 0);
  const champion = tournament.teams.find((t) => t.status === 'champion');
  const entered = tournament.teams.filter((t) => t.status !== 'withdrawn').length;

  return (
    <article class="tournament-home">
      <header class="tournament-head">
        <h1>{tournament.name}</h1>
        <dl class="facts">
          <div>
            <dt>Format</dt>
            <dd>{kind ?? FORMAT_NAMES[tournament.format]}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              <span class={`badge badge--${tournament.status}`}>{STATUS_NAMES[tournament.status]}</span>
            </dd>
          </div>
          <div>
            <dt>Teams</dt>
            <dd>{entered}</dd>
          </div>
          {champion ? (
            <div>
              <dt>Champion</dt>
              <dd class="champion">{champion.name}</dd>
            </div>
          ) : null}
        </dl>
      </header>

      <nav class="tournament-nav" aria-label={`${tournament.name} pages`}>
        <ul>
          <li>
            <a href={links.leaderboard}>Leaderboard</a>
          </li>
          <li>
            <a href={links.bracket}>Bracket</a>
          </li>
          <li>
            <a href={links.rules}>Rules in force</a>
          </li>
          <li>
            <a href={links.screen}>Venue screen</a>
          </li>
          <li>
            <a href={`${links.home}/as-of`}>As of an earlier moment</a>
          </li>
        </ul>
      </nav>

      <section class="live-links" aria-labelledby="live-links-title">
        <h2 id="live-links-title">Live tables</h2>
        {live.length === 0 ? (
          <p class="empty">{tournament.status === 'finished' ? 'All matches are over.' : 'No games in play right now.'}</p>
        ) : (
          <ul class="link-list">
            {live.map((m) => (
              <li>
                <a href={links.game(m.games[m.games.length - 1]!)}>
                  {m.table !== null ? `Table ${m.table}: ` : ''}
                  {teamName(m.teams[0])} vs {teamName(m.teams[1])}
                </a>
                {m.games.length > 1 ? <span class="muted"> · game {m.games.length}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <PrizeList title="Prizes" id="prizes-title" prizes={tournament.prizes} teamName={teamName} />
      <PrizeList title="Second-chance prizes" id="second-chance-prizes-title" prizes={tournament.secondChancePrizes} teamName={teamName} />

      {tournament.latest.length > 0 ? (
        <section class="latest" aria-labelledby="latest-title">
          <h2 id="latest-title">Latest results</h2>
          <ol class="latest-list">
            {tournament.latest.slice(0, 10).map((item) => (
              <li>{newsText(item, tournament)}</li>
            ))}
          </ol>
        </section>
      ) : null}

      {stats && stats.stats.totals.games > 0 ? <TournamentStatsSection stats={stats} /> : null}
    </article>
  );
}

/** Prizes won, each with its winners; nothing when there are none. */
function PrizeList({ title, id, prizes, teamName }: { title: string; id: string; prizes: TournamentModel['prizes']; teamName: (id: string) => string }) {
  if (!prizes || prizes.length === 0) return null;
  return (
    <section class="prizes" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul class="link-list">
        {prizes.map((prize) => (
          <li>
            <strong>{prize.prize}</strong>: {prize.teams.map((team) => teamName(team)).join(', ')}
          </li>
        ))}
      </ul>
    </section>
  );
}
