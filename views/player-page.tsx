/**
 * A player's page across events (every event with place and record, partners and results with
 * each, their hands summed, their rating and its history), and the list of every player with
 * their rating.
 */
import type { PlayerRecord } from '../events/player-record.ts';
import { Layout } from './layout.tsx';

const placeWord = (n: number | null) => {
  if (n === null) return '—';
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** A rating as people read it: the value and its uncertainty, one decimal each. */
export function ratingWords(r: { mu: number; sigma: number }): string {
  return `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`;
}

const playerHref = (playerId: string) => `/players/${encodeURIComponent(playerId)}`;

function Region({ id, children }: { id: string; children: unknown }) {
  return (
    <div class="table-scroll" role="region" aria-labelledby={id} tabindex={0}>
      {children}
    </div>
  );
}

export function PlayerPage({ record, eventNames }: { record: PlayerRecord; eventNames: Record<string, string> }) {
  const { totals, rating } = record;
  return (
    <Layout title={record.name}>
      <h1>{record.name}</h1>
      <p>
        Rating {ratingWords(rating)} after {rating.games} game{rating.games === 1 ? '' : 's'}; {record.events.length} event
        {record.events.length === 1 ? '' : 's'} entered.
      </p>
      <section aria-labelledby="player-events">
        <h2 id="player-events">Events</h2>
        {record.events.length === 0 ? (
          <p class="empty">No event yet.</p>
        ) : (
          <Region id="player-events">
            <table class="standings">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Team</th>
                  <th scope="col">Partner</th>
                  <th scope="col" class="num">
                    Place
                  </th>
                  <th scope="col" class="num">
                    Matches
                  </th>
                  <th scope="col" class="num">
                    Games
                  </th>
                </tr>
              </thead>
              <tbody>
                {record.events.map((e) => (
                  <tr>
                    <th scope="row">
                      <a href={`/tournaments/${encodeURIComponent(e.tournamentId)}`}>{e.name}</a>
                      {e.withdrawn ? ' (withdrew)' : e.status === 'finished' ? '' : e.status === 'running' ? ' (being played)' : ' (registered)'}
                    </th>
                    <td>{e.team?.name ?? 'Partners change each round'}</td>
                    <td>{e.partner ? <a href={playerHref(e.partner.playerId)}>{e.partner.name}</a> : '—'}</td>
                    <td class="num">{placeWord(e.place)}</td>
                    <td class="num">
                      {e.wins}–{e.losses}
                    </td>
                    <td class="num">
                      {e.gamesWon}–{e.gamesLost}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Region>
        )}
      </section>
      <section aria-labelledby="player-partners">
        <h2 id="player-partners">Partners</h2>
        {record.partners.length === 0 ? (
          <p class="empty">No partner in a team event yet.</p>
        ) : (
          <Region id="player-partners">
            <table class="standings">
              <thead>
                <tr>
                  <th scope="col">Partner</th>
                  <th scope="col" class="num">
                    Events
                  </th>
                  <th scope="col" class="num">
                    Games won–lost
                  </th>
                  <th scope="col" class="num">
                    Best finish
                  </th>
                </tr>
              </thead>
              <tbody>
                {record.partners.map((p) => (
                  <tr>
                    <th scope="row">
                      <a href={playerHref(p.playerId)}>{p.name}</a>
                    </th>
                    <td class="num">{p.events}</td>
                    <td class="num">
                      {p.gamesWon}–{p.gamesLost}
                    </td>
                    <td class="num">{placeWord(p.best)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Region>
        )}
      </section>
      <section aria-labelledby="player-hands">
        <h2 id="player-hands">Hands over every event</h2>
        <dl class="stat-list">
          <dt>Games</dt>
          <dd>{totals.games}</dd>
          <dt>Hands</dt>
          <dd>{totals.hands}</dd>
          <dt>Tricks bid</dt>
          <dd>{totals.bid}</dd>
          <dt>Tricks taken</dt>
          <dd>{totals.taken}</dd>
          <dt>Nils bid and made</dt>
          <dd>
            {totals.nilsBid} bid, {totals.nilsMade} made
          </dd>
          <dt>Blind nils bid and made</dt>
          <dd>
            {totals.blindNilsBid} bid, {totals.blindNilsMade} made
          </dd>
          <dt>Bags (their side)</dt>
          <dd>{totals.bags}</dd>
          <dt>Sets (their side)</dt>
          <dd>{totals.sets}</dd>
          <dt>Reneges upheld (their side)</dt>
          <dd>{totals.renegesUpheld}</dd>
        </dl>
      </section>
      <section aria-labelledby="player-rating">
        <h2 id="player-rating">Rating</h2>
        <p>
          A skill estimate and its uncertainty by the Weng-Lin method for team games: everyone starts at 25 ± 8.3, each decided game moves the four players
          toward what the result says, and the uncertainty narrows as games are played. Winners never lose rating from a game.
        </p>
        {rating.history.length === 0 ? (
          <p class="empty">No decided game yet.</p>
        ) : (
          <Region id="player-rating">
            <table class="standings">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Result</th>
                  <th scope="col" class="num">
                    Rating after
                  </th>
                </tr>
              </thead>
              <tbody>
                {rating.history.map((step) => (
                  <tr>
                    <th scope="row">{eventNames[step.tournamentId] ?? 'An event'}</th>
                    <td>{step.result === 'won' ? 'Won' : step.result === 'lost' ? 'Lost' : 'Level'}</td>
                    <td class="num">{ratingWords(step)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Region>
        )}
      </section>
      <p class="tournament-nav">
        <a href="/players">Every player</a>
      </p>
    </Layout>
  );
}

export interface PlayerListRow {
  playerId: string;
  name: string;
  mu: number;
  sigma: number;
  games: number;
  events: number;
}

export function PlayersPage({ players }: { players: PlayerListRow[] }) {
  return (
    <Layout title="Players">
      <h1 id="players-title">Players</h1>
      <p>
        Everyone who has entered an event, by rating: the value less three times its uncertainty, so a player with few games is not put above one who has proved
        it.
      </p>
      {players.length === 0 ? (
        <p class="empty">Nobody has entered an event yet.</p>
      ) : (
        <Region id="players-title">
          <table class="standings">
            <thead>
              <tr>
                <th scope="col">Player</th>
                <th scope="col" class="num">
                  Rating
                </th>
                <th scope="col" class="num">
                  Games
                </th>
                <th scope="col" class="num">
                  Events
                </th>
              </tr>
            </thead>
            <tbody>
              {players.map((p) => (
                <tr>
                  <th scope="row">
                    <a href={playerHref(p.playerId)}>{p.name}</a>
                  </th>
                  <td class="num">{ratingWords(p)}</td>
                  <td class="num">{p.games}</td>
                  <td class="num">{p.events}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Region>
      )}
    </Layout>
  );
}
