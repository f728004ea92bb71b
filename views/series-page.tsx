/**
 * A series' page and its embed: the standings per player and per partnership, the events that
 * count (and those still to be decided), the points table and how ties are broken, in words.
 */
import type { SeriesPlayerRow, SeriesPartnershipRow, SeriesStandings } from '../events/series-standings.ts';
import { Layout } from './layout.tsx';

export interface SeriesPageProps {
  standings: SeriesStandings;
  links: { page: string; csv: string; embed: string };
  /** The embed: no site chrome, links open outside the frame. */
  embed?: boolean;
}

const placeWord = (n: number | null) => {
  if (n === null) return '—';
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** The points table in words: "1st 10, 2nd 7, 3rd 5; 1 for playing". */
export function pointsWords(points: Readonly<Record<string, number>>): string {
  const places = Object.entries(points)
    .filter(([k]) => k !== 'played')
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([k, v]) => `${placeWord(Number(k))} ${v}`);
  const played = points.played;
  return `${places.join(', ')}${played ? `; ${played} for playing` : ''}`;
}

function playerName(row: SeriesPlayerRow, embed: boolean) {
  return embed ? row.name : <a href={`/players/${encodeURIComponent(row.playerId)}`}>{row.name}</a>;
}

function pairName(row: SeriesPartnershipRow, embed: boolean) {
  const [a, b] = row.players;
  if (embed) return row.players.map((p) => p.name).join(' & ');
  return (
    <>
      <a href={`/players/${encodeURIComponent(a!.playerId)}`}>{a!.name}</a> &amp; <a href={`/players/${encodeURIComponent(b!.playerId)}`}>{b!.name}</a>
    </>
  );
}

function StandingsTable<R extends SeriesPlayerRow | SeriesPartnershipRow>(props: {
  id: string;
  title: string;
  who: string;
  rows: R[];
  name: (row: R) => unknown;
  empty: string;
}) {
  const { id, title, who, rows, name, empty } = props;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p class="empty">{empty}</p>
      ) : (
        <div class="table-scroll" role="region" aria-labelledby={id} tabindex={0}>
          <table class="standings">
            <thead>
              <tr>
                <th scope="col" class="num">
                  Place
                </th>
                <th scope="col" class="team-col">
                  {who}
                </th>
                <th scope="col" class="num">
                  Events
                </th>
                <th scope="col" class="num">
                  Points
                </th>
                <th scope="col" class="num">
                  Best finish
                </th>
                <th scope="col">Tiebreak</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr>
                  <td class="num">{row.place}</td>
                  <th scope="row" class="team-col">
                    {name(row)}
                  </th>
                  <td class="num">{row.events}</td>
                  <td class="num">{row.points}</td>
                  <td class="num">{placeWord(row.best)}</td>
                  <td>{row.tiebreak ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The standings regions, shared by the page and the embed. */
export function SeriesStandingsView({ standings, embed = false }: { standings: SeriesStandings; embed?: boolean }) {
  const counted = standings.events.filter((e) => e.counted).length;
  return (
    <>
      <p>
        Points: {pointsWords(standings.points)}. {counted} of {standings.events.length} event{standings.events.length === 1 ? '' : 's'} decided.
      </p>
      <p class="muted">{standings.order}</p>
      <StandingsTable
        id="series-players"
        title="Players"
        who="Player"
        rows={standings.players}
        name={(row: SeriesPlayerRow) => playerName(row, embed)}
        empty="No event of the series has its placings decided yet."
      />
      <StandingsTable
        id="series-partnerships"
        title="Partnerships"
        who="Partners"
        rows={standings.partnerships}
        name={(row: SeriesPartnershipRow) => pairName(row, embed)}
        empty="No partnership has played a decided event of the series yet."
      />
    </>
  );
}

/** A series' whole page, or its embed. */
export function SeriesPage({ standings, links, embed = false }: SeriesPageProps) {
  return (
    <Layout title={embed ? `${standings.name} · standings` : standings.name} embed={embed}>
      <h1>{standings.name}</h1>
      <SeriesStandingsView standings={standings} embed={embed} />
      {embed ? (
        <p class="embed-source">
          <a href={links.page}>{standings.name}</a>
        </p>
      ) : (
        <>
          <section aria-labelledby="series-events">
            <h2 id="series-events">Events</h2>
            {standings.events.length === 0 ? (
              <p class="empty">No event has joined the series yet.</p>
            ) : (
              <ul>
                {standings.events.map((e) => (
                  <li>
                    <a href={`/tournaments/${encodeURIComponent(e.tournamentId)}`}>{e.name}</a>
                    {e.counted ? ', decided' : e.status === 'registration' ? ', taking registrations' : ', being played'}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <p class="tournament-nav">
            <a href={links.csv}>Download the standings (CSV)</a> · <a href="/players">Every player and their rating</a>
          </p>
        </>
      )}
    </Layout>
  );
}
