/**
 * What the record says about the teams and players, counted from every hand (events/
 * tournament-stats.ts): the tournament page's statistics section, a team's and a player's own
 * lines on their pages, and the venue screen's highlights.
 */
import type { Highlight, PlayerStats, TeamStats, TournamentStatsPayload } from '../events/stats-schema.ts';
import { playerLink, teamLink } from '../events/addresses.ts';

export const STATS_ID = 'tournament-stats';
export const HIGHLIGHTS_ID = 'highlights';

/** Highlights the screen shows at once, newest first: what fits the panel at 1920×1080. */
const SCREEN_HIGHLIGHTS = 5;

const made = (done: number, tried: number) => (tried === 0 ? '–' : `${done}/${tried}`);

/** The tournament page's statistics: each team's line, each player's, and the highlights so far. */
export function TournamentStatsSection({ stats }: { stats: TournamentStatsPayload }) {
  const { teams, players, totals } = stats.stats;
  const progressive = teams.length === 0 && players.some((p) => p.playerId !== undefined);
  return (
    <section id={STATS_ID} class="tournament-stats" aria-labelledby="stats-title">
      <h2 id="stats-title">Statistics</h2>
      <p class="stats-summary">
        {totals.hands} hands in {totals.games} {totals.games === 1 ? 'game' : 'games'}
        {totals.misdeals > 0 ? ` (and ${totals.misdeals} misdealt)` : ''}: {totals.nilsMade} of {totals.nilsBid} nils made
        {totals.blindNilsBid > 0 ? `, ${totals.blindNilsMade} of ${totals.blindNilsBid} blind nils` : ''}, {totals.bostons}{' '}
        {totals.bostons === 1 ? 'Boston' : 'Bostons'}, {totals.renegesUpheld} of {totals.renegesClaimed} renege claims upheld.
      </p>
      {teams.length > 0 ? (
        <div class="table-scroll" role="region" aria-labelledby="stats-teams-title" tabindex={0}>
          <table class="stats-table">
            <caption id="stats-teams-title">Teams</caption>
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col" class="num">
                  Hands
                </th>
                <th scope="col" class="num">
                  Bid
                </th>
                <th scope="col" class="num">
                  Taken
                </th>
                <th scope="col" class="num">
                  Made
                </th>
                <th scope="col" class="num">
                  Set
                </th>
                <th scope="col" class="num">
                  Nils
                </th>
                <th scope="col" class="num">
                  Blind nils
                </th>
                <th scope="col" class="num">
                  Bostons
                </th>
                <th scope="col" class="num">
                  Bags
                </th>
                <th scope="col" class="num">
                  Bag penalties
                </th>
                <th scope="col" class="num">
                  Reneges upheld
                </th>
                <th scope="col" class="num">
                  Best hand
                </th>
              </tr>
            </thead>
            <tbody>
              {teams.map((t) => (
                <tr data-team={t.teamId}>
                  <th scope="row">
                    <a href={teamLink(stats.tournamentId, t.teamId)}>{t.name}</a>
                  </th>
                  <td class="num">{t.hands}</td>
                  <td class="num">{t.bid}</td>
                  <td class="num">{t.taken}</td>
                  <td class="num">{t.contractsMade}</td>
                  <td class="num">{t.contractsSet}</td>
                  <td class="num">{made(t.nilsMade, t.nilsBid)}</td>
                  <td class="num">{made(t.blindNilsMade, t.blindNilsBid)}</td>
                  <td class="num">{t.bostons}</td>
                  <td class="num">{t.bags}</td>
                  <td class="num">{t.bagPenalties}</td>
                  <td class="num">{made(t.renegesUpheld, t.renegesClaimed)}</td>
                  <td class="num">{t.bestHand ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div class="table-scroll" role="region" aria-labelledby="stats-players-title" tabindex={0}>
        <table class="stats-table">
          <caption id="stats-players-title">Players, by the seat each played</caption>
          <thead>
            <tr>
              <th scope="col">Player</th>
              {progressive ? null : <th scope="col">Team</th>}
              <th scope="col" class="num">
                Hands
              </th>
              <th scope="col" class="num">
                Bid
              </th>
              <th scope="col" class="num">
                Taken
              </th>
              <th scope="col" class="num">
                Nils
              </th>
              <th scope="col" class="num">
                Blind nils
              </th>
            </tr>
          </thead>
          <tbody>
            {players.map((p) => (
              <tr>
                <th scope="row">{p.playerId !== undefined ? <a href={playerLink(stats.tournamentId, p.playerId)}>{p.name}</a> : p.name}</th>
                {progressive ? null : <td>{teams.find((t) => t.teamId === p.teamId)?.name ?? ''}</td>}
                <td class="num">{p.hands}</td>
                <td class="num">{p.bid}</td>
                <td class="num">{p.taken}</td>
                <td class="num">{made(p.nilsMade, p.nilsBid)}</td>
                <td class="num">{made(p.blindNilsMade, p.blindNilsBid)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {stats.highlights.length > 0 ? (
        <>
          <h3>Highlights</h3>
          <ol class="latest-list stats-highlights" reversed>
            {[...stats.highlights].reverse().map((h) => (
              <li data-kind={h.kind}>{h.text}</li>
            ))}
          </ol>
        </>
      ) : null}
      <p class="exports">
        <a href={`/tournaments/${encodeURIComponent(stats.tournamentId)}/stats.csv`}>Download the statistics as CSV</a>
      </p>
    </section>
  );
}

/** A team's own figures on its page, with its players'. */
export function TeamStatsFacts({ team, players }: { team: TeamStats; players: PlayerStats[] }) {
  return (
    <section class="team-stats" aria-labelledby="team-stats-title">
      <h2 id="team-stats-title">Your statistics</h2>
      <dl class="team-facts">
        <Fact term="Hands played" value={team.hands} />
        <Fact term="Bid / taken" value={`${team.bid} / ${team.taken}`} />
        <Fact term="Contracts made–set" value={`${team.contractsMade}–${team.contractsSet}`} />
        <Fact term="Nils made" value={made(team.nilsMade, team.nilsBid)} />
        {team.blindNilsBid > 0 ? <Fact term="Blind nils made" value={made(team.blindNilsMade, team.blindNilsBid)} /> : null}
        <Fact term="Bostons" value={team.bostons} />
        <Fact term="Bags (penalties)" value={`${team.bags} (${team.bagPenalties})`} />
        <Fact term="Reneges claimed against you, upheld" value={made(team.renegesUpheld, team.renegesClaimed)} />
        <Fact term="Best hand" value={team.bestHand ?? '–'} />
      </dl>
      {players.length > 0 ? (
        <ul class="team-results" aria-label="Each player’s hands">
          {players.map((p) => (
            <li>
              <span class="team-result-match">{p.name}</span> bid {p.bid}, took {p.taken} in {p.hands} {p.hands === 1 ? 'hand' : 'hands'}
              {p.nilsBid > 0 ? `; nils ${p.nilsMade} of ${p.nilsBid}` : ''}
              {p.blindNilsBid > 0 ? `; blind nils ${p.blindNilsMade} of ${p.blindNilsBid}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** A player's own figures on their page in a progressive evening. */
export function PlayerStatsFacts({ player }: { player: PlayerStats }) {
  return (
    <section class="team-stats" aria-labelledby="player-stats-title">
      <h2 id="player-stats-title">Your statistics</h2>
      <dl class="team-facts">
        <Fact term="Hands played" value={player.hands} />
        <Fact term="Bid / taken" value={`${player.bid} / ${player.taken}`} />
        <Fact term="Nils made" value={made(player.nilsMade, player.nilsBid)} />
        {player.blindNilsBid > 0 ? <Fact term="Blind nils made" value={made(player.blindNilsMade, player.blindNilsBid)} /> : null}
      </dl>
    </section>
  );
}

function Fact({ term, value }: { term: string; value: string | number }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * The venue screen's highlights, newest first. `data-newest` is the position of the newest, so
 * the screen's script knows whether something happened since the panel last showed.
 */
export function HighlightsPanel({ highlights }: { highlights: readonly Highlight[] }) {
  const shown = highlights.slice(-SCREEN_HIGHLIGHTS).reverse();
  return (
    <section id={HIGHLIGHTS_ID} class="highlights" aria-labelledby="highlights-title" data-newest={String(shown[0]?.position ?? 0)}>
      <h2 id="highlights-title">Highlights</h2>
      {shown.length === 0 ? (
        <p class="empty">Bostons, blind nils made, big bids and comebacks show here as they happen.</p>
      ) : (
        <ol class="highlight-list">
          {shown.map((h) => (
            <li data-kind={h.kind} data-position={String(h.position)}>
              {h.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
