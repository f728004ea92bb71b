/**
 * The public sign-up page a team (or a progressive player) opens on its phone, the answer it
 * gets with its own page and check-in code, and the sign-up card the venue screen and the code
 * sheet show while the event takes sign-ups.
 */
import { Notice } from './entry-forms.tsx';
import { Layout } from './layout.tsx';
import { QrCode } from './qr-code.tsx';
import { EventTrail } from './rules-sheet.tsx';
import { closingWords } from '../events/time-words.ts';

export { closingWords };

export interface SignUpPageProps {
  tournamentId: string;
  name: string;
  /** Whether a phone signs up a player alone (a progressive evening, drawn partners) rather than a team. */
  progressive: boolean;
  /** Whether a player alone may name a prize category (a progressive evening's high male / high female); `progressive` when absent. */
  categories?: boolean;
  /** Whether sign-up takes entrants now, and why not. */
  open: boolean;
  why: string | null;
  cap: number | null;
  closes: string | null;
  registered: number;
  waitlisted: number;
  fees: { early: number; late: number; deadline: string } | null;
  error?: string | null;
  /** What was typed, kept after a refusal. */
  values?: Record<string, string>;
}

export function SignUpPage(props: SignUpPageProps) {
  const action = `/tournaments/${encodeURIComponent(props.tournamentId)}/sign-up`;
  const v = props.values ?? {};
  const full = props.cap !== null && props.registered >= props.cap;
  return (
    <Layout title={`Sign up · ${props.name}`}>
      <section class="sign-up" aria-labelledby="sign-up-title">
        <EventTrail tournamentId={props.tournamentId} name={props.name} />
        <h1 id="sign-up-title">Sign up for {props.name}</h1>
        {props.open ? (
          <p data-sign-up-open>
            Open
            {props.closes ? (
              <>
                {' '}
                until <time datetime={props.closes}>{closingWords(props.closes)}</time>
              </>
            ) : null}
            .
            {props.cap !== null
              ? ` ${Math.min(props.registered, props.cap)} of ${props.cap} places taken${full ? `: you join the waitlist (${props.waitlisted} waiting)` : ''}.`
              : ''}
          </p>
        ) : (
          <p class="notice notice--error" data-sign-up-closed>
            {props.why}.
          </p>
        )}
        {props.fees ? (
          <p>
            {props.fees.early === props.fees.late ? (
              <>Entry fee: ${props.fees.late}; paid to the director.</>
            ) : (
              <>
                Entry fee: ${props.fees.early} if registered by {props.fees.deadline}, ${props.fees.late} after; paid to the director.
              </>
            )}
          </p>
        ) : null}
        {props.error && props.error !== props.why ? <Notice error={props.error.endsWith('.') ? props.error : `${props.error}.`} /> : null}
        {props.open ? (
          <form method="post" action={action} class="stack-form sign-up-form">
            <label>
              {props.progressive ? 'Your name' : 'Team name'} <input name="name" required autocomplete="off" value={v.name ?? ''} />
            </label>
            {props.progressive ? (
              (props.categories ?? true) ? (
                <label>
                  Prize category (for the high male / high female prizes){' '}
                  <select name="gender">
                    <option value="">None</option>
                    <option value="male">Male</option>
                    <option value="female">Female</option>
                  </select>
                </label>
              ) : (
                <p>You sign up alone: your partner is drawn once check-in closes.</p>
              )
            ) : (
              <>
                <label>
                  First player <input name="player1" required autocomplete="name" value={v.player1 ?? ''} />
                </label>
                <label>
                  Second player <input name="player2" required autocomplete="off" value={v.player2 ?? ''} />
                </label>
              </>
            )}
            <button type="submit" class="big-button" data-action="sign-up">
              Sign up
            </button>
          </form>
        ) : null}
      </section>
    </Layout>
  );
}

export interface SignedUpProps {
  tournamentId: string;
  tournamentName: string;
  name: string;
  status: 'registered' | 'waitlisted';
  /** The place on the waitlist, when waitlisted. */
  place: number | null;
  page: string;
  code: string;
}

/** The answer to a sign-up: registered or waitlisted, the entrant's page and its check-in code. */
export function SignedUpPage(props: SignedUpProps) {
  return (
    <Layout title={`${props.name} · ${props.tournamentName}`}>
      <section class="sign-up" aria-labelledby="signed-up-title">
        <h1 id="signed-up-title" data-sign-up-status={props.status}>
          {props.status === 'registered'
            ? `${props.name} is registered`
            : `${props.name} is on the waitlist${props.place !== null ? `, number ${props.place}` : ''}`}
        </h1>
        <p>{props.status === 'registered' ? `You have a place in ${props.tournamentName}.` : waitlistWords(false)}</p>
        <p>Your check-in code (keep it: at the venue, open your page and tap “We’re here” with it):</p>
        <p class="check-in-code" data-code={props.code}>
          {props.code}
        </p>
        <p>
          <a class="big-button" href={props.page}>
            Open your page
          </a>
        </p>
      </section>
    </Layout>
  );
}

/** What a waitlisted entrant may expect, in the room's words, before the start. */
export function waitlistWords(checkedIn: boolean): string {
  return checkedIn
    ? 'You are checked in. If a place frees up, by a withdrawal or by a team not here at the start, the first on the waitlist who is checked in takes it; this page then says where to go.'
    : 'If a place frees up, by a withdrawal or by a team not here at the start, the first on the waitlist takes it. At the venue, check in here with your code: at the start, freed places go to the waitlisted who are checked in, in order.';
}

/** The check-in code, on the page of the phone that signed the entrant up. */
export function OwnCode({ code }: { code: string }) {
  return (
    <p class="own-code">
      Your check-in code:{' '}
      <strong class="check-in-code" data-code={code}>
        {code}
      </strong>
    </p>
  );
}

/** The sign-up link and its QR code, for the venue screen and the code sheet. */
export function SignUpCard({ link, name, screen = false }: { link: string; name: string; screen?: boolean }) {
  return (
    <aside class={screen ? 'screen-sign-up' : 'table-card sign-up-card'} aria-label={`Sign up for ${name}`} data-sign-up-link={link}>
      <p class="table-card-number">Sign up on your phone</p>
      <QrCode text={link} label={`QR link to sign up for ${name}`} />
      <p class="table-card-link">{link}</p>
    </aside>
  );
}

/** "We're here": an entrant checks itself in from its own page with its code. */
export function CheckInForm({ action, name }: { action: string; name: string }) {
  return (
    <form method="post" action={action} class="stack-form check-in-form" aria-label={`Check ${name} in`}>
      <label>
        Check-in code <input name="code" required maxlength={40} autocomplete="off" autocapitalize="characters" spellcheck={false} />
      </label>
      <button type="submit" class="big-button" data-action="check-in">
        We’re here
      </button>
    </form>
  );
}
