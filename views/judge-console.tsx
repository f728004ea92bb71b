/**
 * The judge console: one queue of open renege claims across every tournament, the one waiting
 * longest first, each with where it was made (tournament, table, round, teams), when, a link to
 * the hand's replay, the hand around the claimed trick and what the engine itself finds there,
 * and two big buttons to uphold or deny it. Below: the misdeals called at the tables, the forms
 * for time calls, disqualifications (with a confirmation step) and corrections, and every ruling
 * with its judge and time. Teams are named everywhere, never by their ids.
 *
 * The page is live: a change to anything it shows makes it fetch its console again
 * (static/judge.js sounds and flashes a claim that was not there before).
 */
import type { WaitingParts } from '../events/ruling-wait.ts';
import { WaitingLine } from './ruling-wait.tsx';
import { SEAT_NAMES, type Seat } from '../engine/cards.ts';
import { CardFace } from './card-face.tsx';
import { HiddenKeys, Notice, PostForm } from './entry-forms.tsx';
import { Layout } from './layout.tsx';
import { SessionList, type SessionListProps } from './login.tsx';

export const JUDGE_CONSOLE_ID = 'judge-console';
/** The live region whose change makes the console fetch itself again. */
export const JUDGE_SIGNAL_ID = 'judge-signal';

export interface ClaimCase {
  gameId: string;
  claimId: string;
  /** The tournament's name, for a game played in one. */
  tournament: string | null;
  table: number | null;
  /** The match's round ("Round 2", "Losers round 1"). */
  round: string | null;
  teams: { NS: string; EW: string };
  /** The team of the seat the claim is against. */
  accusedTeam: string;
  hand: number;
  seat: Seat;
  trick: number | null;
  /** ISO time the claim was recorded ('' when the ledger does not say). */
  claimedAt: string;
  /** The hand's replay, at the claimed trick. */
  replay: string;
  /** The claimed trick with the one before and after it, as played. */
  tricks: { number: number; cards: { seat: Seat; card: string }[]; claimed: boolean }[];
  /** What the engine finds in the recorded plays of that hand. */
  detected: string;
  /** How the preset pays an upheld renege. */
  penalty: string;
  /** The match result the claim holds until it is ruled on: "Holds Round 1’s result: waiting for a ruling on table 6 for 4 minutes". */
  holds?: { prefix: string; parts: WaitingParts } | null;
}

/** A disqualification asked for and not yet confirmed. */
export interface PendingDisqualification {
  tournamentId: string;
  teamId: string;
  team: string;
  tournament: string;
  kind: 'disqualified' | 'no-show' | 'forfeit';
  reason: string;
  /** The team's matches still to play, which it forfeits. */
  forfeits: number;
}

/** A ruling asked for on a claim and not yet confirmed. */
export interface PendingRuling {
  gameId: string;
  claimId: string;
  upheld: boolean;
  note: string;
  /** The claim as the queue heads it: where, who, which hand. */
  claim: string;
  /** What the ruling does to the score, in the preset's words. */
  effect: string;
}

/** A ruling a judge asked to withdraw, not yet confirmed. */
export interface PendingWithdrawal {
  gameId: string;
  claimId?: string;
  correction?: number;
  /** The ruling as the list shows it. */
  ruling: string;
  /** What it does to the score now, which the withdrawal undoes. */
  effect: string;
  reason: string;
}

/**
 * A ruling (or correction, or disqualification) that would change a decided match, shown in full
 * before the one confirmation: what reopens, the games voided, the matches played again, the
 * teams moved, and the standings and statistics after.
 */
export interface PendingReopening {
  /** What the judge asked, as the question heads it ("Uphold the renege claim against South, …"). */
  asked: string;
  /** Where the confirmation posts, and the fields it sends again. */
  action: string;
  fields: Record<string, string>;
  reopened: string[];
  voided: string[];
  replayed: string[];
  moved: string[];
  standings: { name: string; record: string; stands: string }[];
  stats: string[];
}

/** A ruling as the console lists it: what it was, what it does to the score, and whether it was withdrawn. */
export interface RulingLine {
  at: string;
  judge: string;
  text: string;
  /** What it does to the score now ("-130 to Aces High (N/S), hand 4"). */
  effect?: string;
  /** Who withdrew it, when and why. */
  withdrawn?: { judge: string; reason: string; at: string } | null;
  /** What the withdrawal form names, for a ruling that can be withdrawn. */
  withdraw?: { gameId: string; claimId?: string; correction?: number } | null;
  /** Why this kind of ruling is not withdrawn. */
  fixed?: string;
}

export interface JudgeConsoleProps {
  csrf: string;
  judge: string;
  /** The judge's own sessions, listed below the console, each of which can be ended there. */
  sessions?: SessionListProps;
  claims: ClaimCase[];
  misdeals: { label: string; hand: number; reason: string }[];
  /** Live matches, for time calls. */
  matches: { tournamentId: string; matchId: string; label: string; clock: string }[];
  /** Teams still in an event, for disqualifications. */
  teams: { tournamentId: string; teamId: string; name: string; tournament: string }[];
  /** Games a correction may apply to. */
  games: {
    tournamentId: string | null;
    gameId: string;
    label: string;
    finished: boolean;
    teams: { NS: string; EW: string };
    teamIds: { NS: string; EW: string };
  }[];
  rulings: RulingLine[];
  /** A disqualification to confirm before it is recorded. */
  confirm?: PendingDisqualification | null;
  /** A ruling to confirm before it is recorded. */
  confirmRuling?: PendingRuling | null;
  /** A withdrawal to confirm before it is recorded. */
  confirmWithdrawal?: PendingWithdrawal | null;
  /** A reopening to confirm, shown in full, before it is recorded. */
  confirmReopening?: PendingReopening | null;
  error?: string | null;
  done?: string | null;
}

const KIND_WORDS: Record<PendingDisqualification['kind'], string> = { disqualified: 'disqualified', 'no-show': 'a no-show', forfeit: 'forfeiting' };

/** The console's live region: the answer to every form on it. */
export function JudgeConsole(props: JudgeConsoleProps) {
  const { csrf } = props;
  const form = (action: string) => ({ action, target: JUDGE_CONSOLE_ID, csrf });
  return (
    <section id={JUDGE_CONSOLE_ID} class="judge" aria-labelledby="judge-title" data-claims={props.claims.map((c) => c.claimId).join(' ')}>
      <header class="judge-head">
        <h1 id="judge-title">Judge console</h1>
        <p class="signed-in">Signed in as {props.judge}.</p>
        {/* Filled in by static/judge.js: a new claim is announced here, with a sound when it is on. */}
        <p class="judge-alert" data-judge-alert role="alert" hidden></p>
      </header>
      <Notice error={props.error ?? null} done={props.done ?? null} />

      {props.confirm ? <ConfirmDisqualification pending={props.confirm} csrf={csrf} /> : null}
      {props.confirmRuling ? <ConfirmRuling pending={props.confirmRuling} csrf={csrf} /> : null}
      {props.confirmWithdrawal ? <ConfirmWithdrawal pending={props.confirmWithdrawal} csrf={csrf} /> : null}
      {props.confirmReopening ? <ConfirmReopening pending={props.confirmReopening} csrf={csrf} /> : null}

      <section aria-labelledby="queue-title">
        <h2 id="queue-title">
          Open claims{' '}
          <span class="count" data-claim-count>
            {props.claims.length}
          </span>
        </h2>
        {props.claims.length === 0 ? <p class="empty">No claims waiting.</p> : <p class="muted">The claim waiting longest comes first.</p>}
        {props.claims.map((claim) => (
          <article class="claim-case" data-claim={claim.claimId} aria-labelledby={`claim-${claim.claimId}-title`}>
            <p class="claim-where">{[claim.tournament, claim.table !== null ? `Table ${claim.table}` : null, claim.round].filter(Boolean).join(' · ')}</p>
            <h3 id={`claim-${claim.claimId}-title`}>
              {claim.teams.NS} vs {claim.teams.EW}: renege claimed against {SEAT_NAMES[claim.seat]} ({claim.accusedTeam}), hand {claim.hand}
              {claim.trick !== null ? `, trick ${claim.trick}` : ''}
            </h3>
            {claim.claimedAt ? (
              <p class="claim-when">
                Claimed at <time datetime={claim.claimedAt}>{claim.claimedAt.slice(11, 16)}</time> · waiting{' '}
                <span class="claim-age" data-since={claim.claimedAt}>
                  {ageText(claim.claimedAt)}
                </span>
              </p>
            ) : null}
            {claim.holds ? (
              <p class="claim-holds" data-awaiting-ruling>
                <strong>
                  <WaitingLine prefix={claim.holds.prefix} parts={claim.holds.parts} />
                </strong>
              </p>
            ) : null}
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
            <p>
              <a href={claim.replay} data-replay>
                Replay hand {claim.hand} card by card
              </a>
            </p>
            <PostForm {...form(`/judge/games/${encodeURIComponent(claim.gameId)}/claims/${encodeURIComponent(claim.claimId)}/ruling`)} class="ruling-form">
              <label>
                Note (optional) <input name="note" maxlength={1000} />
              </label>
              <div class="ruling-buttons">
                <button type="submit" name="upheld" value="yes" class="big-button rule-button rule-button--uphold" data-action="uphold">
                  Uphold: the renege stands
                </button>
                <button type="submit" name="upheld" value="no" class="big-button big-button--quiet rule-button rule-button--deny" data-action="deny">
                  Deny the claim
                </button>
              </div>
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
                {m.label}, hand {m.hand}: {m.reason}
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
              <select name="match" required>
                {props.matches.map((m) => (
                  <option value={`${m.tournamentId}/${m.matchId}`}>
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
              Team to put out{' '}
              <select name="team" required>
                <option value="" selected>
                  Choose a team…
                </option>
                {props.teams.map((t) => (
                  <option value={`${t.tournamentId}/${t.teamId}`}>
                    {t.name} ({t.tournament})
                  </option>
                ))}
              </select>
            </label>
            <label>
              Why{' '}
              <select name="kind">
                <option value="disqualified">Disqualified</option>
                <option value="no-show">No-show</option>
                <option value="forfeit">Forfeit</option>
              </select>
            </label>
            <label>
              Reason <input name="reason" required maxlength={500} />
            </label>
            <button type="submit" data-action="disqualify">
              Put the team out…
            </button>
            <p class="muted">You are asked to confirm before anything is recorded.</p>
          </PostForm>
        ) : null}
        {props.games.length > 0 ? (
          <PostForm {...form('/judge/corrections')} class="stack-form">
            <label>
              Game{' '}
              <select name="gameId" required>
                <option value="" selected>
                  Choose a game…
                </option>
                {props.games.map((g) => (
                  <option value={g.gameId}>{g.label}</option>
                ))}
              </select>
            </label>
            <label>
              Points to North–South <input name="NS" type="number" required inputmode="numeric" placeholder="e.g. -30" />
            </label>
            <label>
              Points to East–West <input name="EW" type="number" required inputmode="numeric" placeholder="e.g. 30" />
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
              <select name="result" required>
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
              <li
                class={r.withdrawn ? 'ruling is-withdrawn' : 'ruling'}
                data-ruling={r.withdraw ? (r.withdraw.claimId ?? `correction-${r.withdraw.correction}`) : undefined}
              >
                <time datetime={r.at}>{r.at.slice(11, 16)}</time> <strong>{r.judge}</strong>: {r.text}
                {r.effect ? (
                  <span class="ruling-effect" data-effect>
                    {' '}
                    Effect: {r.effect}.
                  </span>
                ) : null}
                {r.withdrawn ? (
                  <p class="ruling-withdrawn" data-withdrawn>
                    Withdrawn at <time datetime={r.withdrawn.at}>{r.withdrawn.at.slice(11, 16)}</time> by {r.withdrawn.judge}: {r.withdrawn.reason}
                  </p>
                ) : r.withdraw ? (
                  <PostForm {...form('/judge/withdrawals')} class="withdraw-form">
                    <input type="hidden" name="gameId" value={r.withdraw.gameId} />
                    {r.withdraw.claimId !== undefined ? <input type="hidden" name="claimId" value={r.withdraw.claimId} /> : null}
                    {r.withdraw.correction !== undefined ? <input type="hidden" name="correction" value={String(r.withdraw.correction)} /> : null}
                    <label>
                      Why withdraw it <input name="reason" required maxlength={500} />
                    </label>
                    <button type="submit" class="big-button--quiet" data-action="withdraw">
                      Withdraw this ruling…
                    </button>
                  </PostForm>
                ) : r.fixed ? (
                  <p class="muted">Not withdrawn: {r.fixed}.</p>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  );
}

/** The step between asking to put a team out and recording it: who, from what, why, and what follows. */
/**
 * A confirmation's answers: the form that records what was asked (its fields sent again with
 * `confirm=yes`), and the way back that records nothing.
 */
function ConfirmAnswers(props: {
  action: string;
  csrf: string;
  fields: [string, string][];
  button: { class: string; data: string; text: unknown };
  cancel: string;
}) {
  return (
    <div class="button-row">
      <form method="post" action={props.action} hx-post={props.action} hx-target={`#${JUDGE_CONSOLE_ID}`} hx-swap="outerHTML">
        <HiddenKeys csrf={props.csrf} />
        {props.fields.map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" class={props.button.class} data-action={props.button.data}>
          {props.button.text}
        </button>
      </form>
      <a class="big-button big-button--quiet" href="/judge" data-action="cancel">
        {props.cancel}
      </a>
    </div>
  );
}

function ConfirmDisqualification({ pending, csrf }: { pending: PendingDisqualification; csrf: string }) {
  return (
    <section class="confirm-step" aria-labelledby="confirm-title" data-confirm>
      {/* The question takes the focus as the step appears (htmx focuses what it swaps in marked autofocus): a keyboard or a screen reader lands on it, one Tab from its answer. */}
      <h2 id="confirm-title" tabindex={-1} autofocus>
        Put {pending.team} out of {pending.tournament}?
      </h2>
      <p>
        {pending.team} will be recorded as {KIND_WORDS[pending.kind]}: “{pending.reason}”.{' '}
        {pending.forfeits > 0
          ? `It forfeits its ${pending.forfeits === 1 ? 'match' : `${pending.forfeits} matches`} still to play, and its opponents go through.`
          : 'It has no match left to play.'}{' '}
        This is entered in the ledger and cannot be taken back except by a director’s correction.
      </p>
      <ConfirmAnswers
        action="/judge/disqualify"
        csrf={csrf}
        fields={[
          ['team', `${pending.tournamentId}/${pending.teamId}`],
          ['kind', pending.kind],
          ['reason', pending.reason],
        ]}
        button={{ class: 'big-button big-button--danger', data: 'confirm-disqualify', text: `Yes, put ${pending.team} out` }}
        cancel="Cancel"
      />
    </section>
  );
}

function ConfirmRuling({ pending, csrf }: { pending: PendingRuling; csrf: string }) {
  const action = `/judge/games/${encodeURIComponent(pending.gameId)}/claims/${encodeURIComponent(pending.claimId)}/ruling`;
  return (
    <section class="confirm-step" aria-labelledby="confirm-ruling-title" data-confirm-ruling>
      <h2 id="confirm-ruling-title" tabindex={-1} autofocus>
        {pending.upheld ? 'Uphold' : 'Deny'} this claim?
      </h2>
      <p>{pending.claim}</p>
      <p>
        {pending.upheld ? 'Upheld: ' : 'Denied: '}
        {pending.effect} {pending.note ? `Your note: “${pending.note}”. ` : ''}The ruling is entered in the ledger; a later correction may change its effect,
        but it is never erased.
      </p>
      <ConfirmAnswers
        action={action}
        csrf={csrf}
        fields={[
          ['upheld', pending.upheld ? 'yes' : 'no'],
          ['note', pending.note],
        ]}
        button={{
          class: `big-button ${pending.upheld ? 'big-button--danger' : ''}`,
          data: 'confirm-ruling',
          text: `Yes, ${pending.upheld ? 'uphold' : 'deny'} it`,
        }}
        cancel="Go back"
      />
    </section>
  );
}

/** The step between asking to withdraw a ruling and recording it: which ruling, and what it stops doing. */
function ConfirmWithdrawal({ pending, csrf }: { pending: PendingWithdrawal; csrf: string }) {
  return (
    <section class="confirm-step" aria-labelledby="confirm-withdrawal-title" data-confirm-withdrawal>
      <h2 id="confirm-withdrawal-title" tabindex={-1} autofocus>
        Withdraw this ruling?
      </h2>
      <p>{pending.ruling}</p>
      <p>
        Its effect now: {pending.effect}. Withdrawn, it no longer counts and the game is scored again without it. Your reason: “{pending.reason}”. The ruling
        and its withdrawal both stay in the ledger; a withdrawal cannot itself be withdrawn.
      </p>
      <ConfirmAnswers
        action="/judge/withdrawals"
        csrf={csrf}
        fields={[
          ['gameId', pending.gameId],
          ...(pending.claimId !== undefined ? [['claimId', pending.claimId] as [string, string]] : []),
          ...(pending.correction !== undefined ? [['correction', String(pending.correction)] as [string, string]] : []),
          ['reason', pending.reason],
        ]}
        button={{ class: 'big-button big-button--danger', data: 'confirm-withdraw', text: 'Yes, withdraw it' }}
        cancel="Go back"
      />
    </section>
  );
}

/** The step before a reopening is recorded: everything it changes, then the one confirmation. */
function ConfirmReopening({ pending, csrf }: { pending: PendingReopening; csrf: string }) {
  const list = (id: string, title: string, items: string[]) =>
    items.length > 0 ? (
      <section aria-labelledby={id}>
        <h3 id={id}>{title}</h3>
        <ul data-reopening-list={id}>
          {items.map((item) => (
            <li>{item}</li>
          ))}
        </ul>
      </section>
    ) : null;
  return (
    <section class="confirm-step confirm-step--reopening" aria-labelledby="confirm-reopening-title" data-confirm-reopening>
      <h2 id="confirm-reopening-title" tabindex={-1} autofocus>
        Reopen a decided match?
      </h2>
      <p>{pending.asked} This would change a decided match. Everything it changes is listed here; nothing is recorded until you confirm.</p>
      {list('reopening-reopened', 'Matches reopened', pending.reopened)}
      {list('reopening-voided', 'Games voided (kept on record, no longer counted)', pending.voided)}
      {list('reopening-replayed', 'Matches to be played again', pending.replayed)}
      {list('reopening-moved', 'Teams moved', pending.moved)}
      <section aria-labelledby="reopening-standings">
        <h3 id="reopening-standings">Standings after</h3>
        <table class="reopening-standings">
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col">Matches</th>
              <th scope="col">Where it stands</th>
            </tr>
          </thead>
          <tbody>
            {pending.standings.map((row) => (
              <tr>
                <th scope="row">{row.name}</th>
                <td>{row.record}</td>
                <td>{row.stands}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {list('reopening-stats', 'Statistics after', pending.stats)}
      <ConfirmAnswers
        action={pending.action}
        csrf={csrf}
        fields={[...Object.entries(pending.fields), ['reopen', 'yes']]}
        button={{ class: 'big-button big-button--danger', data: 'confirm-reopening', text: 'Yes, reopen it' }}
        cancel="Go back"
      />
    </section>
  );
}

/** How long ago an ISO time was, as the queue shows it; static/clock.js keeps it ticking. */
function ageText(iso: string, now = Date.now()): string {
  const minutes = Math.floor(Math.max(0, now - Date.parse(iso)) / 60000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The console as a whole page, live: its stream says when to fetch the console again. */
export function JudgePage(props: JudgeConsoleProps & { stream: string; signal: string }) {
  return (
    <Layout
      title={props.claims.length > 0 ? `(${props.claims.length}) Judge console` : 'Judge console'}
      signedIn={props.judge}
      live={{ url: props.stream }}
      scripts={['/static/judge.js']}
    >
      <div id={JUDGE_SIGNAL_ID} hidden data-version={props.signal}></div>
      <JudgeConsole {...props} />
      {props.sessions ? <SessionList {...props.sessions} /> : null}
    </Layout>
  );
}

/**
 * What the console's stream sends when what it shows has changed: the signal region again, now
 * asking the page to fetch its console (each judge's own, with their session's forms).
 */
export function JudgeSignal({ version }: { version: string }) {
  return (
    <div
      id={JUDGE_SIGNAL_ID}
      hidden
      data-version={version}
      hx-get="/judge/console"
      hx-trigger="load"
      hx-target={`#${JUDGE_CONSOLE_ID}`}
      hx-swap="outerMorph"
    ></div>
  );
}
