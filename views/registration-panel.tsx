/**
 * Registration on the director's desk: public sign-up (its cap, closing time and link), the
 * fees' totals, the waitlist in order, a pasted list or CSV previewed before it is recorded.
 */
import { HiddenKeys, PostForm } from './entry-forms.tsx';
import { problemText } from '../events/entrant-fields.ts';
import { closingWords } from '../events/time-words.ts';

export interface RegistrationPanelProps {
  /** Sign-up as a director last set it, and whether it takes entrants now (and why not). */
  signUp: { open: boolean; cap: number | null; closes: string | null; openNow: boolean; why: string | null } | null;
  signUpLink: string;
  waitlist: { teamId: string; name: string; players: string[]; status: 'waiting' | 'withdrawn' | 'promoted'; place: number | null }[];
  /** Whether the event charges entry fees. */
  charges: boolean;
  fees: Record<string, { fee: number | null; paid: number; owed: number }>;
  totals: { due: number; paid: number; outstanding: number };
  /** Each entrant's check-in code, to hand over with its card. */
  codes: Record<string, string>;
  checkedInBy: Record<string, string>;
  counts: { registered: number; waitlisted: number; withdrawn: number };
}

export interface BulkPreviewProps {
  lines: string;
  preview: {
    entrants: { line: number; teamId: string; name: string; players: string[]; gender?: string; registeredOn?: string; fee: number | null }[];
    already: { line: number; teamId: string; name: string }[];
    problems: { line: number; field: string; problem: string }[];
  };
}

type Form = (path: string) => { action: string; target: string; csrf: string };

const money = (n: number) => `$${n}`;

/** The sign-up's state in words: "Open until …, 6 of 8 places taken". */
function signUpWords(p: RegistrationPanelProps): string {
  const s = p.signUp;
  if (!s) return 'Sign-up has not been opened.';
  if (!s.openNow) return `Sign-up is closed: ${s.why ?? 'closed by the director'}.`;
  return `Sign-up is open${s.closes ? ` until ${closingWords(s.closes)}` : ''}${s.cap !== null ? `; ${p.counts.registered} of ${s.cap} places taken` : ''}.`;
}

/** Sign-up, fees and the waitlist, under the entrants' table. */
export function RegistrationPanel({
  props,
  form,
  registering,
  progressive,
}: {
  props: RegistrationPanelProps;
  form: Form;
  registering: boolean;
  progressive: boolean;
}) {
  const word = progressive ? 'players' : 'teams';
  return (
    <section class="registration" aria-labelledby="registration-title">
      <h2 id="registration-title">Registration</h2>
      <p data-registration-counts>
        {props.counts.registered} registered · {props.counts.waitlisted} waitlisted · {props.counts.withdrawn} withdrawn
      </p>
      {props.charges ? (
        <p data-fee-totals>
          Fees: {money(props.totals.due)} due · {money(props.totals.paid)} paid · {money(props.totals.outstanding)} outstanding
        </p>
      ) : null}
      <h3>Public sign-up</h3>
      <p data-sign-up-state>
        {signUpWords(props)} Link: <a href={props.signUpLink}>{props.signUpLink}</a>
      </p>
      {registering ? (
        <div class="button-row">
          <PostForm {...form('/sign-up')} class="stack-form">
            <input type="hidden" name="open" value="yes" />
            <label>
              Cap (most {word} registered; the rest are waitlisted){' '}
              <input
                name="cap"
                type="number"
                min={2}
                max={512}
                class="narrow"
                value={props.signUp?.cap !== null && props.signUp?.cap !== undefined ? String(props.signUp.cap) : ''}
              />
            </label>
            <label>
              Closes at (this server’s time; empty for open until the director closes it) <input name="closes" type="datetime-local" />
            </label>
            <button type="submit" data-action="open-sign-up">
              {props.signUp?.open ? 'Change the sign-up' : 'Open sign-up'}
            </button>
          </PostForm>
          {props.signUp?.open ? (
            <PostForm {...form('/sign-up')}>
              <input type="hidden" name="open" value="no" />
              <button type="submit" class="button-quiet" data-action="close-sign-up">
                Close sign-up
              </button>
            </PostForm>
          ) : null}
        </div>
      ) : null}
      {props.waitlist.length > 0 ? (
        <>
          <h3>Waitlist</h3>
          <table class="director-teams" data-waitlist>
            <thead>
              <tr>
                <th scope="col">Place</th>
                <th scope="col">Name</th>
                {progressive ? null : <th scope="col">Players</th>}
                <th scope="col">Status</th>
                <th scope="col"></th>
              </tr>
            </thead>
            <tbody>
              {props.waitlist.map((w) => (
                <tr data-team={w.teamId}>
                  <td>{w.place ?? '—'}</td>
                  <td>{w.name}</td>
                  {progressive ? null : <td>{w.players.join(' & ')}</td>}
                  <td>{w.status === 'waiting' ? 'waitlisted' : w.status === 'promoted' ? 'registered from the waitlist' : 'withdrawn'}</td>
                  <td>
                    {registering && w.status === 'waiting' ? (
                      <PostForm {...form('/withdraw')} class="inline-form">
                        <input type="hidden" name="teamId" value={w.teamId} />
                        <button type="submit" class="button-quiet">
                          Withdraw {w.name}
                        </button>
                      </PostForm>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

/** The form for a pasted list or a CSV file; a plain post, as a file does not travel by htmx. */
export function BulkForm({ action, csrf, progressive, lines = '' }: { action: string; csrf: string; progressive: boolean; lines?: string }) {
  const shape = progressive
    ? 'name, then male or female if the player is in a high male / high female prize'
    : 'team name, player 1, player 2, then the registration date (2024-09-12) if it sets the fee';
  return (
    <form method="post" action={action} enctype="multipart/form-data" class="stack-form bulk-form">
      <HiddenKeys csrf={csrf} />
      <h2>Register many at once</h2>
      <p class="muted">One a line, separated by commas or tabs: {shape}. Nothing is recorded until you confirm the preview.</p>
      <label>
        Paste the list
        <textarea name="lines" rows={6}>
          {lines}
        </textarea>
      </label>
      <label>
        Or upload a CSV file <input type="file" name="file" accept=".csv,.txt,text/csv,text/plain" />
      </label>
      <button type="submit" data-action="preview-bulk">
        Preview
      </button>
    </form>
  );
}

/** What a paste would register, with each problem by line and field; the confirmation only when there is none. */
export function BulkPreviewPanel({ bulk, action, csrf, progressive }: { bulk: BulkPreviewProps; action: string; csrf: string; progressive: boolean }) {
  const { entrants, already, problems } = bulk.preview;
  return (
    <section class="confirm-step" aria-labelledby="bulk-preview-title" data-bulk-preview>
      <h2 id="bulk-preview-title">
        Preview: {entrants.length} to register{problems.length > 0 ? `, ${problems.length} problem${problems.length === 1 ? '' : 's'} to fix` : ''}
      </h2>
      {problems.length > 0 ? (
        <>
          <p role="alert">Nothing is recorded while any line has a problem. Fix these and preview again:</p>
          <ul class="bulk-problems">
            {problems.map((p) => (
              <li data-line={p.line} data-field={p.field}>
                {problemText(p).replace(/^l/, 'L')}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {already.length > 0 ? <p class="muted">Already registered, left as they are: {already.map((a) => `${a.name} (line ${a.line})`).join(', ')}.</p> : null}
      {entrants.length > 0 ? (
        <table class="director-teams">
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Name</th>
              {progressive ? <th scope="col">Prize category</th> : <th scope="col">Players</th>}
              {progressive ? null : <th scope="col">Registered on</th>}
              <th scope="col">Fee</th>
            </tr>
          </thead>
          <tbody>
            {entrants.map((e) => (
              <tr>
                <td>{e.line}</td>
                <td>{e.name}</td>
                <td>{progressive ? (e.gender ?? '—') : e.players.join(' & ')}</td>
                {progressive ? null : <td>{e.registeredOn ?? '—'}</td>}
                <td>{e.fee === null ? '—' : money(e.fee)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {problems.length === 0 && entrants.length > 0 ? (
        <form method="post" action={action}>
          <HiddenKeys csrf={csrf} />
          <input type="hidden" name="lines" value={bulk.lines} />
          <input type="hidden" name="confirm" value="yes" />
          <button type="submit" class="big-button" data-action="confirm-bulk">
            Yes, register these {entrants.length}
          </button>
        </form>
      ) : null}
    </section>
  );
}

/** A registration at the desk that met a full cap, waiting for the director's answer. */
export interface CapChoiceProps {
  name: string;
  holding: number;
  cap: number;
  waiting: number;
  /** The registration's route, under the tournament's, and what it sent, sent again with the answer. */
  path: string;
  fields: Record<string, string>;
}

/** The question a full cap asks at the desk: raise it by one, or the waitlist, as the public page would. */
export function CapChoice({ choice, form }: { choice: CapChoiceProps; form: (path: string) => { action: string; target?: string; csrf: string } }) {
  const f = form(choice.path);
  const again = Object.entries(choice.fields).map(([k, v]) => <input type="hidden" name={k} value={v} />);
  return (
    <section class="confirm-step" aria-labelledby="cap-choice-title" data-cap-choice>
      <h2 id="cap-choice-title" tabindex={-1} autofocus>
        The event is full: register {choice.name}?
      </h2>
      <p>
        {choice.holding} of {choice.cap} places are taken{choice.waiting > 0 ? ` and ${choice.waiting} wait${choice.waiting === 1 ? 's' : ''}` : ''}. The public
        sign-up counts the same places: a raised cap is shown there too.
      </p>
      <div class="button-row">
        <PostForm {...f}>
          {again}
          <input type="hidden" name="overCap" value="raise" />
          <button type="submit" class="big-button" data-action="raise-cap">
            Raise the cap to {choice.cap + 1} and register {choice.name}
          </button>
        </PostForm>
        <PostForm {...f}>
          {again}
          <input type="hidden" name="overCap" value="waitlist" />
          <button type="submit" class="big-button big-button--quiet" data-action="waitlist">
            Put {choice.name} on the waitlist, number {choice.waiting + 1}
          </button>
        </PostForm>
      </div>
    </section>
  );
}
