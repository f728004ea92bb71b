/**
 * The event's news in the room's words: the read model keeps what happened (who, which match
 * or table, by what), and the venue screen's ticker and the event's page say it the same way.
 */
import { matchNameIn } from '../events/tournament-bracket.ts';
import { CAUSES } from '../events/tournament-rulings.ts';
import { listed } from '../events/tournament-state.ts';
import type { NewsFact, NewsResult, TournamentModel } from '../events/read-models.ts';

/** What a piece of news is worded from: the event's teams and matches, as they are now. */
export type NewsContext = Pick<TournamentModel, 'teams' | 'matches'>;

/** One line for the room: "Aces beat Kings 2–1", "Time called in Final, game 1, during hand 2". */
export function newsText(news: NewsFact, event: NewsContext): string {
  const name = (teamId: string) => event.teams.find((t) => t.teamId === teamId)?.name ?? teamId;
  const label = (matchId: string) => event.matches.find((m) => m.matchId === matchId)?.label ?? `match ${matchId}`;
  const score = (result: NewsResult) => `${result.won}–${result.lost}`;
  switch (news.kind) {
    case 'match-won':
      return `${name(news.winner)} beat ${name(news.loser)} ${score(news)}`;
    case 'match-undecided':
      return `${label(news.matchId)} is no longer decided; play goes on`;
    case 'match-under-review':
      return `${label(news.matchId)} is under review: a team in it changed`;
    case 'matches-reopened': {
      const reopened = news.reopened.map(({ matchId, result }) =>
        result
          ? `${matchNameIn(event.matches, matchId)} now goes to ${name(result.winner)} ${score(result)}`
          : `${matchNameIn(event.matches, matchId)} reopened`,
      );
      const restart = news.restart.map((matchId) => matchNameIn(event.matches, matchId));
      return `${listed(reopened)} by ${CAUSES[news.by] ?? 'a later ruling'}${restart.length === 0 ? '' : `; ${listed(restart)} ${restart.length === 1 ? 'restarts' : 'restart'}`}`;
    }
    case 'round-drawn': {
      const byes = news.byes.map((bye) => `${name(bye.teamId)} has the bye${bye.card ? ` (${bye.card})` : ''}`);
      return `${news.playoff ? 'Playoff drawn' : news.final ? 'Final drawn' : `Round ${news.round} drawn`}${byes.length > 0 ? `: ${byes.join('; ')}` : ''}`;
    }
    case 'time-called':
      return `Time called in ${label(news.matchId)}${news.game !== null ? `, game ${news.game},` : ''} during hand ${news.hand}`;
    case 'result-corrected':
      return `Judge ${news.judge} corrected game ${news.gameId}: ${name(news.winner)} won (${news.reason})`;
    case 'team-out':
      return `${name(news.teamId)} ${news.how === 'forfeit' ? 'forfeits' : news.how === 'no-show' ? 'is a no-show' : 'is disqualified'}: ${news.reason}`;
    case 'round-seated':
      return `Round ${news.round} seated at ${news.tables} tables`;
    case 'rounds-changed':
      return `The event now plays ${news.rounds} round${news.rounds === 1 ? '' : 's'}`;
    case 'round-finished':
      return `Round ${news.round} finished`;
    default: {
      const _exhaustive: never = news;
      return _exhaustive;
    }
  }
}
