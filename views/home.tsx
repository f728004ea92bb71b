/**
 * The site's front page: every tournament with where it stands (registration, the rounds in
 * play and the tables live, or its champion) and the way to its pages. Live: the list is
 * replaced whole when any tournament changes.
 */
import type { TournamentModel } from '../events/read-models.ts';
import { FORMAT_NAMES, STATUS_NAMES } from './tournament-home.tsx';
import { tournamentLinks } from '../events/addresses.ts';

export const TOURNAMENT_LIST_ID = 'tournament-list';

export interface TournamentListProps {
  tournaments: TournamentModel[];
  /** The tournament the venue's /screen shows. */
  onScreen: string | null;
  /** What each event is, in words, by id, where its format alone does not say it (a structure chosen apart from its rules). */
  kinds?: Readonly<Record<string, string>>;
}

const STATUS_ORDER: Record<TournamentModel['status'], number> = { running: 0, registration: 1, finished: 2 };

/** The tournaments, those in play first, each with its state and links. */
export function TournamentList({ tournaments, onScreen, kinds = {} }: TournamentListProps) {
  const list = [...tournaments].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  return (
    <section id={TOURNAMENT_LIST_ID} class="tournament-list" aria-labelledby="tournament-list-title">
      <h1 id="tournament-list-title">Tournaments</h1>
      {list.length === 0 ? (
        <p class="empty">No tournament has been set up yet. A director sets one up after signing in.</p>
      ) : (
        <ul class="tournament-cards">
          {list.map((t) => {
            const links = tournamentLinks(t.tournamentId);
            return (
              <li class="tournament-card" data-tournament={t.tournamentId}>
                <h2>
                  <a href={links.home}>{t.name}</a>
                </h2>
                <p class="tournament-card-facts">
                  <span class={`badge badge--${t.status}`}>{STATUS_NAMES[t.status]}</span> {kinds[t.tournamentId] ?? FORMAT_NAMES[t.format]} · {entrants(t)}
                  {onScreen === t.tournamentId ? <span class="badge badge--screen">On /screen</span> : null}
                </p>
                <p class="tournament-card-state">{stateOf(t)}</p>
                <p class="tournament-card-links">
                  <a href={links.leaderboard}>Standings</a> · <a href={links.bracket}>Bracket</a> · <a href={links.screen}>Venue screen</a>
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function entrants(t: TournamentModel): string {
  const n = t.teams.filter((team) => team.status !== 'withdrawn').length;
  const what = t.format === 'tournament-spades' ? 'player' : 'team';
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/** Where a tournament stands in one line: the rounds being played and the tables live, or its result. */
function stateOf(t: TournamentModel): string {
  if (t.status === 'registration') return 'Taking registrations; the bracket is drawn at the start.';
  const names = new Map(t.teams.map((team) => [team.teamId, team.name]));
  if (t.status === 'finished') {
    const champion = t.placings.find((p) => p.place === 1);
    return champion ? `Champion: ${names.get(champion.teamId) ?? champion.teamId}.` : 'All matches are over.';
  }
  const live = t.matches.filter((m) => m.status === 'live');
  const playing = live.length > 0 ? live : t.matches.filter((m) => m.status === 'ready');
  const rounds = [...new Set(playing.map((m) => m.label))];
  const tables = live.length === 1 ? '1 table live' : `${live.length} tables live`;
  return rounds.length > 0 ? `${rounds.join(', ')} in play · ${tables}.` : `${tables}.`;
}
