/**
 * The director's desk before the start: the seeding form (a seed number for each entrant, or a
 * pasted list of names), the preview of the draw that asks for a confirmation before anything
 * is recorded, and the question asked before an entrant is withdrawn. Each confirmation is a
 * plain form carrying confirm=yes, so it works without scripts, as the judge console's do.
 */
import type { TeamRow } from '../events/read-models.ts';
import { PostForm } from './entry-forms.tsx';

/** The draw a start would record, decided and not recorded. */
export interface StartPreview {
  tournamentId: string;
  progressive: boolean;
  /** Seed 1 first (a progressive evening: the seating order). */
  seeds: { seed: number; teamId: string; name: string }[];
  /** Entrants not checked in, withdrawn by this start. */
  withdrawn: string[];
  /** How the order was made: the director's, or shuffled from this recorded seed. */
  seeding: { method: 'manual' } | { method: 'random'; seed: string };
  /** Round 1's matches, names in order; a bye has one team. */
  matches: { label: string; teams: string[]; bye: boolean }[];
  /** A progressive evening's first round: each table N, E, S, W, and who sits out. */
  seating: { table: number; seats: string[] }[];
  sittingOut: string[];
  /** The seeds the confirmation must draw again; a different draw is refused. */
  expect: string;
  /** The fields the confirmation posts again. */
  resend: Record<string, string>;
}

/** An entrant whose withdrawal is asked for and not yet confirmed. */
export interface PendingWithdrawal {
  teamId: string;
  name: string;
  progressive: boolean;
  /** The first waitlisted entrant, who takes the place the withdrawal frees. */
  taker?: string | null;
}

type Form = (path: string) => { action: string; target: string; csrf: string };
type Entrant = TeamRow & { checkedIn: boolean };

/** The name of the field holding an entrant's seed number on the seeding form. */
export const seedField = (teamId: string) => `seedOf-${teamId}`;

/** Seeding and the start: a seed number for each entrant, or names pasted one a line; the draw is previewed first. */
export function StartForm({
  teams,
  progressive,
  format,
  form,
  charges = false,
}: {
  teams: Entrant[];
  progressive: boolean;
  format: string;
  form: Form;
  charges?: boolean;
}) {
  const entrants = teams.filter((t) => t.status === 'registered');
  const absent = entrants.filter((t) => !t.checkedIn);
  const who = progressive ? 'players' : 'teams';
  return (
    <section class="start-desk" aria-labelledby="start-title">
      <h2 id="start-title">{progressive ? 'Draw the first seating and start' : 'Seed and draw'}</h2>
      <p data-checked-in={`${entrants.length - absent.length}/${entrants.length}`}>
        {entrants.length - absent.length} of {entrants.length} {who} checked in.
        {absent.length > 0 ? ` Not checked in: ${absent.map((t) => t.name).join(', ')}.` : ''}
      </p>
      <PostForm {...form('/start')} class="stack-form">
        <fieldset>
          <legend>
            {progressive
              ? 'Seating order: a number for each player (1 sits first, four a table from table 1)'
              : 'Seeds: a number for each team (1 is the top seed)'}
            ; leave all empty to draw at random
          </legend>
          <ul class="seed-list">
            {entrants.map((t) => (
              <li>
                <label>
                  <input name={seedField(t.teamId)} type="number" min={1} max={entrants.length} class="narrow" inputmode="numeric" />{' '}
                  <span class="seed-name">{t.name}</span>
                  {t.checkedIn ? null : <span class="muted"> (not checked in)</span>}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <label>
          <input type="checkbox" name="byRating" value="yes" /> Or seed by rating: the players’ ratings across events, the highest first
        </label>
        <label>
          Or paste the {progressive ? 'seating order' : 'seeding'}: names one a line, {progressive ? 'the first seat first' : 'the top seed first'}
          <textarea name="order" rows={4}></textarea>
        </label>
        <label>
          Random seed (recorded, so the draw can be checked; left empty, one is made and shown in the preview) <input name="seed" maxlength={100} />
        </label>
        {format === 'blp-2024' ? (
          <label>
            Bye draw, with an odd number of teams: the cards drawn, team and card, one draw a line (leave empty to draw from the seed)
            <textarea name="byeCards" rows={2} placeholder="aces AS, kings 10H, books 4C"></textarea>
          </label>
        ) : null}
        {absent.length > 0 ? (
          <label class="confirm-check">
            <input type="checkbox" name="withdrawAbsent" value="yes" /> Start without the {absent.length} not checked in: they are withdrawn
          </label>
        ) : null}
        {charges ? (
          <label class="confirm-check">
            <input type="checkbox" name="requirePaid" value="yes" /> Start only when every {progressive ? 'player' : 'team'} starting has paid its fee
          </label>
        ) : null}
        <button type="submit" data-action="preview-draw">
          Preview the draw
        </button>
      </PostForm>
    </section>
  );
}

/** The draw a start would record, with the question: record it and start, or change it. */
export function ConfirmStart({ preview, form }: { preview: StartPreview; form: Form }) {
  const { action, target, csrf } = form('/start');
  const order = preview.seeds.map((s) => s.teamId);
  const moved = (i: number, by: -1 | 1) => {
    const next = [...order];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    return next.join('\n');
  };
  const keep = Object.entries(preview.resend).filter(([k]) => k !== 'order' && k !== 'seed');
  return (
    <section class="confirm-step" aria-labelledby="confirm-start-title" data-confirm-start>
      {/* The question takes the focus as the step appears (htmx focuses what it swaps in marked autofocus). */}
      <h2 id="confirm-start-title" tabindex={-1} autofocus>
        {preview.progressive ? 'Record this seating and start?' : 'Record this draw and start?'}
      </h2>
      <p>
        {preview.seeding.method === 'random' ? `Drawn at random from the seed “${preview.seeding.seed}”, which is recorded.` : 'In the order given.'} Nothing is
        recorded until you confirm; registration then closes and the draw cannot be taken back.
      </p>
      {preview.withdrawn.length > 0 ? (
        <p class="notice notice--review" data-withdrawn>
          Not checked in, withdrawn by this start: {preview.withdrawn.join(', ')}.
        </p>
      ) : null}
      <h3>{preview.progressive ? 'Seating order' : 'Seeds'}</h3>
      <ol class="seed-order" data-seeds={preview.expect}>
        {preview.seeds.map((s, i) => (
          <li data-team={s.teamId}>
            <span class="seed-number">{s.seed}.</span> <span class="seed-name">{s.name}</span>{' '}
            {i > 0 ? (
              <PostForm action={action} target={target} csrf={csrf} class="inline-form">
                <input type="hidden" name="order" value={moved(i, -1)} />
                {keep.map(([k, v]) => (
                  <input type="hidden" name={k} value={v} />
                ))}
                <button type="submit" class="button-quiet" data-action="seed-up" aria-label={`Move ${s.name} up`}>
                  ↑ up
                </button>
              </PostForm>
            ) : null}
            {i < preview.seeds.length - 1 ? (
              <PostForm action={action} target={target} csrf={csrf} class="inline-form">
                <input type="hidden" name="order" value={moved(i, 1)} />
                {keep.map(([k, v]) => (
                  <input type="hidden" name={k} value={v} />
                ))}
                <button type="submit" class="button-quiet" data-action="seed-down" aria-label={`Move ${s.name} down`}>
                  ↓ down
                </button>
              </PostForm>
            ) : null}
          </li>
        ))}
      </ol>
      {preview.matches.length > 0 ? (
        <>
          <h3>Round 1</h3>
          <ul class="preview-matches">
            {preview.matches.map((m) => (
              <li data-match>{m.bye ? `${m.label}: ${m.teams.join('')} has a bye` : `${m.label}: ${m.teams.join(' vs ')}`}</li>
            ))}
          </ul>
        </>
      ) : null}
      {preview.seating.length > 0 ? (
        <>
          <h3>Round 1 seating (North, East, South, West)</h3>
          <ul class="preview-matches">
            {preview.seating.map((t) => (
              <li data-table={t.table}>
                Table {t.table}: {t.seats.join(', ')}
              </li>
            ))}
          </ul>
          {preview.sittingOut.length > 0 ? <p>Sitting out round 1: {preview.sittingOut.join(', ')}.</p> : null}
        </>
      ) : null}
      <div class="button-row">
        <PostForm action={action} target={target} csrf={csrf}>
          {Object.entries(preview.resend).map(([k, v]) => (
            <input type="hidden" name={k} value={v} />
          ))}
          <input type="hidden" name="expect" value={preview.expect} />
          <input type="hidden" name="confirm" value="yes" />
          <button type="submit" class="big-button big-button--danger" data-action="confirm-start">
            {preview.progressive ? 'Yes, record this seating and start' : 'Yes, record this draw and start'}
          </button>
        </PostForm>
        <a class="big-button big-button--quiet" href={`/director/tournaments/${encodeURIComponent(preview.tournamentId)}`} data-action="cancel">
          Cancel
        </a>
      </div>
    </section>
  );
}

/** The question asked before an entrant is withdrawn. */
export function ConfirmWithdraw({ pending, form }: { pending: PendingWithdrawal; form: Form }) {
  const f = form('/withdraw');
  return (
    <section class="confirm-step" aria-labelledby="confirm-withdraw-title" data-confirm-withdraw>
      <h2 id="confirm-withdraw-title" tabindex={-1} autofocus>
        Withdraw {pending.name}?
      </h2>
      <p>
        {pending.name} is withdrawn from the event: it cannot check in or be drawn, and this is entered in the ledger. Its name can be registered again as a new{' '}
        {pending.progressive ? 'player' : 'team'}.
      </p>
      {pending.taker ? <p data-taker>{pending.taker}, first on the waitlist, takes its place.</p> : null}
      <div class="button-row">
        <PostForm {...f}>
          <input type="hidden" name="teamId" value={pending.teamId} />
          <input type="hidden" name="confirm" value="yes" />
          <button type="submit" class="big-button big-button--danger" data-action="confirm-withdraw">
            Yes, withdraw {pending.name}
          </button>
        </PostForm>
        <a class="big-button big-button--quiet" href={f.action.replace(/\/withdraw$/, '')} data-action="cancel">
          Cancel
        </a>
      </div>
    </section>
  );
}
