/**
 * A team's own page and a progressive player's: one live region in large type that reads on a
 * phone in the hand and across the room, telling the team where to go next, the score of the
 * match it is playing, and how it stands. The page and its stream render the same component.
 */
import { WaitingLine } from './ruling-wait.tsx';
import type { PlayerPageModel, TeamPageModel } from './team-page-model.ts';
import { PlayerStatsFacts, TeamStatsFacts } from './stats.tsx';
import { ordinal } from '../events/standings.ts';

export const TEAM_STATUS_ID = 'team-status';
export const PLAYER_STATUS_ID = 'player-status';

const OUTCOMES: Record<TeamPageModel['results'][number]['outcome'], string> = {
  won: 'Won',
  lost: 'Lost',
  bye: 'Bye',
  'forfeit-won': 'Won by forfeit',
  'forfeit-lost': 'Lost by forfeit',
};

/** Everything a team's page shows, as one region its stream replaces. */
export function TeamStatus({ model }: { model: TeamPageModel }) {
  const { next, live, standing } = model;
  return (
    <section id={TEAM_STATUS_ID} class={`team-status team-status--${next.kind}`} data-next={next.kind} aria-labelledby="team-name">
      <h1 id="team-name" class="team-status-name">
        {model.name}
      </h1>
      {model.players.length > 0 ? <p class="team-status-players">{model.players.join(' & ')}</p> : null}
      <div class="team-next" role="status" {...(next.table !== null ? { 'data-table': String(next.table) } : {})}>
        <p class="team-next-headline">{next.headline}</p>
        {next.detail ? <p class="team-next-detail">{next.detail}</p> : null}
        {next.ruling ? (
          <p class="team-next-ruling" data-awaiting-ruling>
            <WaitingLine parts={next.ruling} />
          </p>
        ) : null}
      </div>
      {model.undone.length > 0 ? (
        <ul class="team-undone notice notice--review" data-undone>
          {model.undone.map((line) => (
            <li>{line}</li>
          ))}
        </ul>
      ) : null}
      {live ? (
        <section class="team-live" aria-labelledby="team-live-title">
          <h2 id="team-live-title">
            {live.label}
            {live.table !== null ? ` · Table ${live.table}` : ''}
          </h2>
          {live.games ? (
            <p class="team-live-games" data-games={live.games.join('-')}>
              Games{' '}
              <strong>
                {live.games[0]}–{live.games[1]}
              </strong>{' '}
              against {live.opponent} <span class="muted">(best of {live.bestOf})</span>
            </p>
          ) : null}
          {live.game ? (
            <p class="team-live-score" data-score={`${live.game.us}-${live.game.them}`}>
              <span class="team-live-us">
                <span class="team-live-side">{model.name}</span> <strong>{live.game.us}</strong>
              </span>
              <span class="team-live-them">
                <span class="team-live-side">{live.opponent}</span> <strong>{live.game.them}</strong>
              </span>
              <span class="team-live-hand">
                {live.games ? `Game ${live.game.number}, ` : ''}
                {live.game.over ? 'game over' : live.game.hand > 0 ? `hand ${live.game.hand}` : 'first hand to be dealt'}
              </span>
            </p>
          ) : (
            <p class="team-live-score">Against {live.opponent}: the first game is about to start.</p>
          )}
        </section>
      ) : null}
      <section class="team-standing" aria-labelledby="team-standing-title">
        <h2 id="team-standing-title">How you stand</h2>
        <dl class="team-facts">
          <div>
            <dt>Standing</dt>
            <dd>
              <span class={`badge badge--${standing.badge.tone}`} data-standing={standing.badge.tone}>
                {standing.badge.label}
                {standing.reach && !standing.reach.startsWith('out') && !standing.badge.label.toLowerCase().includes(standing.reach)
                  ? `, ${standing.reach}`
                  : ''}
              </span>
            </dd>
          </div>
          <div>
            <dt>{standing.league ? 'Place' : 'Rank'}</dt>
            <dd data-rank={String(standing.league?.place ?? standing.rank)}>
              {ordinal(standing.league?.place ?? standing.rank)} of {standing.of}
              {standing.league?.shared ? ', shared' : ''}
            </dd>
          </div>
          <div>
            <dt>Matches won–lost</dt>
            <dd>{standing.matches}</dd>
          </div>
          <div>
            <dt>Games won–lost</dt>
            <dd>{standing.games}</dd>
          </div>
          {standing.league ? (
            standing.league.tiebreaks
              .filter((t) => t.tiebreak !== 'match-wins' && t.tiebreak !== 'games-won')
              .map((t) => (
                <div data-tiebreak>
                  <dt>{t.words}</dt>
                  <dd>{t.value}</dd>
                </div>
              ))
          ) : (
            <div>
              <dt>{standing.pointsTiebreak ? 'Points (only a tiebreak)' : 'Points'}</dt>
              <dd>{standing.points}</dd>
            </div>
          )}
        </dl>
        {model.results.length > 0 ? (
          <ol class="team-results" aria-label="Your matches so far">
            {model.results.map((r) => (
              <li data-outcome={r.outcome}>
                <span class="team-result-match">{r.label}</span>{' '}
                {r.outcome === 'bye' ? 'Bye' : `${OUTCOMES[r.outcome]} against ${r.opponent}${r.games ? `, ${r.games}` : ''}`}
              </li>
            ))}
          </ol>
        ) : null}
      </section>
      {model.stats ? <TeamStatsFacts team={model.stats.team} players={model.stats.players} /> : null}
    </section>
  );
}

/** Everything a player's page shows in a progressive evening, as one region its stream replaces. */
export function PlayerStatus({ model }: { model: PlayerPageModel }) {
  const { next, live } = model;
  return (
    <section id={PLAYER_STATUS_ID} class={`team-status team-status--${next.kind}`} data-next={next.kind} aria-labelledby="player-name">
      <h1 id="player-name" class="team-status-name">
        {model.name}
      </h1>
      <div class="team-next" role="status" {...(next.table !== null ? { 'data-table': String(next.table) } : {})}>
        <p class="team-next-headline">{next.headline}</p>
        {next.detail ? <p class="team-next-detail">{next.detail}</p> : null}
      </div>
      {live ? (
        <section class="team-live" aria-labelledby="player-live-title">
          <h2 id="player-live-title">Table {live.table}: your side’s round score</h2>
          <p class="team-live-score" data-score={`${live.us}-${live.them}`}>
            <span class="team-live-us">
              <span class="team-live-side">You and your partner</span> <strong>{live.us}</strong>
            </span>
            <span class="team-live-them">
              <span class="team-live-side">Against you</span> <strong>{live.them}</strong>
            </span>
            <span class="team-live-hand">
              {live.over
                ? 'round over at this table'
                : live.hand > 4
                  ? `hand ${live.hand}: an extra hand to break the tie`
                  : live.hand > 0
                    ? `hand ${live.hand} of 4`
                    : 'first hand to be dealt'}
            </span>
          </p>
        </section>
      ) : null}
      <section class="team-standing" aria-labelledby="player-standing-title">
        <h2 id="player-standing-title">How you stand</h2>
        <dl class="team-facts">
          <div>
            <dt>Total</dt>
            <dd data-total={String(model.total)}>{model.total}</dd>
          </div>
          {model.standing ? (
            <div>
              <dt>Standing</dt>
              <dd data-standing={model.standing}>{model.standing}</dd>
            </div>
          ) : null}
          <div>
            <dt>Place</dt>
            <dd data-place={model.place === null ? '' : String(model.place)}>
              {model.place === null ? '—' : `${model.shared ? 'Tied ' : ''}${ordinal(model.place)} of ${model.of}`}
            </dd>
          </div>
          <div>
            <dt>Rounds</dt>
            <dd>
              {model.rounds.length} of {model.roundsInEvent}
            </dd>
          </div>
        </dl>
        {model.rounds.length > 0 ? (
          <ol class="team-results" aria-label="Your rounds so far">
            {model.rounds.map((r) => (
              <li data-round={String(r.round)}>
                <span class="team-result-match">Round {r.round}</span> {r.where}
                {r.score !== null ? `: ${r.score}` : ''}
              </li>
            ))}
          </ol>
        ) : null}
      </section>
      {model.stats ? <PlayerStatsFacts player={model.stats} /> : null}
    </section>
  );
}
