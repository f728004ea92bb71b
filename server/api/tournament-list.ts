/**
 * The list of tournaments as the read API answers it: every tournament in the order they were
 * created, narrowed by status, format or creation date when asked, and paged when a `limit` is
 * given, each page linking to the next by an opaque cursor. Without a limit it is every
 * tournament, as it always was.
 */
import type { ReadModels } from '../../events/projections.ts';
import type { TournamentModel } from '../../events/read-models.ts';
import { tournamentLinks } from '../../events/addresses.ts';
import type { TournamentList } from './api-schemas.ts';
import { apiLinks, tournamentTimes } from './match-resources.ts';

/** What the list may be narrowed and paged by: the query's values, checked by their schemas. */
export interface ListQuery {
  status?: string;
  format?: string;
  since?: string;
  limit?: string;
  cursor?: string;
  asOf?: string;
}

/** The entrants still in the event's list: registered and not withdrawn. */
function entrantCount(model: TournamentModel): number {
  return model.teams.filter((t) => t.status !== 'withdrawn').length;
}

/** A cursor names the last tournament of the page before it; opaque to clients. */
export function cursorAfter(tournamentId: string): string {
  return Buffer.from(`after:${tournamentId}`, 'utf8').toString('base64url');
}

/** The tournament a cursor names, or null when it is no cursor this list gave. */
function cursorTarget(cursor: string): string | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith('after:') && cursorAfter(text.slice(6)) === cursor ? text.slice(6) : null;
}

/** Every tournament, narrowed and paged as asked; `missing` names a cursor this list did not give. */
export function tournamentList(models: ReadModels, query: ListQuery = {}): TournamentList | { missing: string } {
  let states = Object.values(models.tournaments);
  if (query.cursor !== undefined) {
    const after = cursorTarget(query.cursor);
    const index = after === null ? -1 : states.findIndex((s) => s.model.tournamentId === after);
    if (index < 0) return { missing: `the cursor '${query.cursor}' is not one this list gave; start again without it` };
    states = states.slice(index + 1);
  }
  const since = query.since === undefined ? null : Date.parse(query.since);
  const chosen = states.filter(
    (s) =>
      (query.status === undefined || s.model.status === query.status) &&
      (query.format === undefined || s.model.format === query.format) &&
      (since === null || (s.times !== undefined && Date.parse(s.times.createdAt) >= since)),
  );
  const limit = query.limit === undefined ? chosen.length : Number(query.limit);
  const page = chosen.slice(0, limit);
  const more = chosen.length > page.length && page.length > 0;
  const next = more
    ? `${apiLinks.tournaments}?${new URLSearchParams({
        ...(query.status !== undefined ? { status: query.status } : {}),
        ...(query.format !== undefined ? { format: query.format } : {}),
        ...(query.since !== undefined ? { since: query.since } : {}),
        ...(query.asOf !== undefined ? { asOf: query.asOf } : {}),
        limit: String(limit),
        cursor: cursorAfter(page[page.length - 1]!.model.tournamentId),
      }).toString()}`
    : null;
  return {
    position: models.position,
    next,
    tournaments: page.map((state) => {
      const model = state.model;
      const pages = tournamentLinks(model.tournamentId);
      return {
        tournamentId: model.tournamentId,
        name: model.name,
        format: model.format,
        status: model.status,
        ...tournamentTimes(state),
        counts: {
          entrants: entrantCount(model),
          matches: model.matches.length,
          matchesDone: model.matches.filter((m) => m.status === 'done' || m.status === 'forfeit').length,
          liveTables: model.matches.filter((m) => m.status === 'live').length,
        },
        links: {
          self: apiLinks.tournament(model.tournamentId),
          stats: apiLinks.stats(model.tournamentId),
          matches: apiLinks.matches(model.tournamentId),
          entrants: apiLinks.entrants(model.tournamentId),
          page: pages.home,
          standings: pages.leaderboard,
          bracket: pages.bracket,
        },
      };
    }),
  };
}
