/**
 * A tournament's bracket and standings for other sites to frame (a club's page, a stream
 * overlay): the same regions as the bracket and standings pages, kept live by the same streams,
 * without the site's header or any sign-in, as wide as the frame. Their links open in a new tab,
 * since only these addresses may be framed.
 */
import type { ReadModels } from '../../events/projections.ts';
import { tournamentById } from '../../events/lookup.ts';
import { Bracket } from '../../views/bracket.tsx';
import { Layout } from '../../views/layout.tsx';
import { Leaderboard } from '../../views/leaderboard.tsx';
import { bracketProps, html, progressiveOf, progressiveSeatingOf } from './live-pages.tsx';
import { tournamentLinks } from '../../events/addresses.ts';
import { roundsInPlaceOfBracket } from './standings-parts.tsx';

export type EmbedKind = 'bracket' | 'standings';

/** The embeds, by the last word of their address, and the live page whose stream each follows. */
export const EMBEDS: Readonly<Record<EmbedKind, 'bracket' | 'leaderboard'>> = { bracket: 'bracket', standings: 'leaderboard' };

/** An embed's whole page, or null when the tournament does not exist. */
export function renderEmbed(kind: EmbedKind, tournamentId: string, models: ReadModels): string | null {
  const tournament = tournamentById(models, tournamentId)?.model;
  if (!tournament) return null;
  const links = tournamentLinks(tournamentId);
  const page = EMBEDS[kind] === 'bracket' ? links.bracket : links.leaderboard;
  return html(
    <Layout title={`${tournament.name} · ${kind}`} embed live={{ url: `${page}/stream?after=${models.position}` }}>
      {kind === 'bracket' ? (
        // A league's rounds stand where a knockout's tree would, as on the bracket's page and in its stream.
        (roundsInPlaceOfBracket(models, tournament) ?? <Bracket {...bracketProps(models, tournament)} />)
      ) : (
        <>
          {progressiveSeatingOf(models, tournament)}
          <Leaderboard tournament={tournament} />
          {progressiveOf(models, tournament)}
        </>
      )}
      <p class="embed-source">
        <a href={page}>{tournament.name}</a>, live
      </p>
    </Layout>,
  );
}

/** The page an embed of a tournament the ledger does not hold answers with: a sentence, framed as the embed would be. */
export function missingEmbed(tournamentId: string): string {
  return html(
    <Layout title="Not found" embed>
      <p class="notice">There is no tournament '{tournamentId}' to show here.</p>
    </Layout>,
  );
}
