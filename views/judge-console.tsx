/**
 * The judge console: the queue of open renege claims with the hand around each claimed trick
 * and what the engine itself detects there, the misdeals called at the tables, the forms for
 * time calls, disqualifications and corrections, and every ruling with its judge and time.
 */
import type { Seat } from '../engine/cards.ts';
import { CardFace } from './card-face.tsx';
import { Notice, PostForm } from './entry-forms.tsx';
import { Layout } from './layout.tsx';
import { SEAT_NAMES } from './entry-table.tsx';

export const JUDGE_CONSOLE_ID = 'judge-console';

export interface ClaimCase {
  gameId: string;
  claimId: string;
  table: number | null;
  teams: { NS: string; EW: string };
  hand: number;
  seat: Seat;
  trick: number | null;
  /** The claimed trick with the one before and after it, as played. */
  tricks: { number: number; cards: { seat: Seat; card: string }[]; claimed: boolean }[];
  /** What the engine finds in the recorded plays of that hand. */
  detected: string;
  /** How the preset pays an upheld renege. */
  penalty: string;
}

export interface JudgeConsoleProps {
  csrf: string;
  judge: string;
  claims: ClaimCase[];
  misdeals: { gameId: string; table: number | null; hand: number; reason: string }[];
  /** Live matches, for time calls. */
  matches: { tournamentId: string; matchId: string; label: string; table: number | null; clock: string }[];
  /** Teams still in an event, for disqualifications. */
  teams: { tournamentId: string; teamId: string; name: string }[];
  /** Games a correction may apply to. */
  games: { tournamentId: string | null; gameId: string; label: string; finished: boolean; teams: { NS: string; EW: string }; teamIds: { NS: string; EW: string } }[];
  rulings: { at: string; judge: string; text: string }[];
  error?: string | null;
  done?: string | null;
}

/** The console's live region: the answer to every form on it. */
export function JudgeConsole(props: JudgeConsoleProps) {
  const { csrf } = props;
  const form = (action: string) => ({ action, target: JUDGE_CONSOLE_ID, csrf });
  return (
    <section id={JUDGE_CONSOLE_ID} class="judge" aria-labelledby="judge-title">
      <h1 id="judge-title">Judge console</h1>
      <p class="signed-in">Signed in as {props.judge}.</p>
      <Notice error={props.error ?? null} done={props.done ?? null} />

      <section aria-labelledby="queue-title">
        <h2 id="queue-title">Open claims ({props.claims.length})</h2>
        {props.claims.length === 0 ? <p class="empty">No claims waiting.</p> : null}
        {props.claims.map((claim) => (
          <article class="claim-case" data-claim={claim.claimId}>
            <h3>
              {claim.table !== null ? `Table ${claim.table} · ` : ''}
              {claim.teams.NS} vs {claim.teams.EW}: renege claimed against {SEAT_NAMES[claim.seat]}, hand {claim.hand}
              {claim.trick !== null ? `, trick ${claim.trick}` : ''}
            </h3>
            {claim.tricks.length > 0 ? (
              <ol class="claim-tricks">
                {claim.tricks.map((t) => (
                  <li class={t.claimed ? 'is-claimed' : undefined}>
                    Trick {t.number}:{' '}
                    {t.cards.map((p) => (
                      <span class="on-table-card">
                        {p.seat} <CardFace name={p.card} />{' '}
                      </span>
                    ))}
                  </li>
                ))}
              </ol>
            ) : (
              <p class="empty">No cards were recorded for this hand.</p>
            )}
            <p class="engine-finds" data-engine>
              {claim.detected}
            </p>
            <p class="penalty">{claim.penalty}</p>
            <PostForm {...form(`/judge/games/${encodeURIComponent(claim.gameId)}/claims/${encodeURIComponent(claim.claimId)}/ruling`)} class="ruling-form">
              <label>
                Note <input name="note" maxlength={1000} />
              </label>
              <fieldset class="ruling-choice">
                <legend>Ruling</legend>
                <label>
                  <input type="radio" name="upheld" value="yes" required data-choice="uphold" /> Uphold: the renege stands
                </label>
                <label>
                  <input type="radio" name="upheld" value="no" data-choice="deny" /> Deny
                </label>
              </fieldset>
              <button type="submit" class="big-button" data-action="rule">
                Give the ruling
              </button>
            </PostForm>
          </article>
        ))}
      </section>

      <section aria-labelledby="misdeal-title">
        <h2 id="misdeal-title">Misdeals called</h2>
        {props.misdeals.length === 0 ? (
          <p class="empty">None.</p>
        ) : (
          <ul>
            {props.misdeals.map((m) => (
              <li>
                {m.table !== null ? `Table ${m.table}, ` : ''}game {m.gameId}, hand {m.hand}: {m.reason}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="actions-title">
        <h2 id="actions-title">Time, disqualification, corrections</h2>
        {props.matches.length > 0 ? (
          <PostForm {...form('/judge/time')} class="stack-form">
            <label>
              Call time in{' '}
              <select name="match">
                {props.matches.map((m) => (
                  <option value={`${m.tournamentId}/${m.matchId}`}>
                    {m.table !== null ? `Table ${m.table}: ` : ''}
                    {m.label} ({m.clock})
                  </option>
                ))}
              </select>
            </label>
            <button type="submit">Call time</button>
          </PostForm>
        ) : null}
        {props.teams.length > 0 ? (
          <PostForm {...form('/judge/disqualify')} class="stack-form">
            <label>
              Team{' '}
              <select name="team">
                {props.teams.map((t) => (
                  <option value={`${t.tournamentId}/${t.teamId}`}>{t.name}</option>
                ))}
              </select>
            </label>
            <label>
              What{' '}
              <select name="kind">
                <option value="disqualified">Disqualified</option>
                <option value="no-show">No-show</option>
                <option value="forfeit">Forfeit</option>
              </select>
            </label>
            <label>
              Reason <input name="reason" required maxlength={500} />
            </label>
            <button type="submit">Put the team out</button>
          </PostForm>
        ) : null}
        {props.games.length > 0 ? (
          <PostForm {...form('/judge/corrections')} class="stack-form">
            <label>
              Game{' '}
              <select name="gameId">
                {props.games.map((g) => (
                  <option value={g.gameId}>{g.label}</option>
                ))}
              </select>
            </label>
            <label>
              Points to North–South <input name="NS" type="number" value="0" />
            </label>
            <label>
              Points to East–West <input name="EW" type="number" value="0" />
            </label>
            <label>
              Reason <input name="reason" required maxlength={500} />
            </label>
            <button type="submit">Correct the score</button>
          </PostForm>
        ) : null}
        {props.games.some((g) => g.finished && g.tournamentId) ? (
          <PostForm {...form('/judge/results')} class="stack-form">
            <label>
              Finished game and its rightful winner{' '}
              <select name="result">
                {props.games
                  .filter((g) => g.finished && g.tournamentId)
                  .flatMap((g) => [
                    <option value={`${g.gameId}/${g.teamIds.NS}`}>
                      {g.label}: {g.teams.NS} won
                    </option>,
                    <option value={`${g.gameId}/${g.teamIds.EW}`}>
                      {g.label}: {g.teams.EW} won
                    </option>,
                  ])}
              </select>
            </label>
            <label>
              Reason <input name="reason" required maxlength={500} />
            </label>
            <button type="submit">Correct the result</button>
          </PostForm>
        ) : null}
      </section>

      <section aria-labelledby="rulings-title">
        <h2 id="rulings-title">Rulings</h2>
        {props.rulings.length === 0 ? (
          <p class="empty">No rulings yet.</p>
        ) : (
          <ol class="rulings" reversed>
            {props.rulings.map((r) => (
              <li>
                <time datetime={r.at}>{r.at.slice(11, 16)}</time> <strong>{r.judge}</strong>: {r.text}
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  );
}

/** The console as a whole page. */
export function JudgePage(props: JudgeConsoleProps) {
  return (
    <Layout title="Judge console" signedIn={props.judge}>
      <JudgeConsole {...props} />
    </Layout>
  );
}
