/**
 * Signing in: directors and judges with a name and password, a scorekeeper with the code on
 * the table's card (or its QR link, which fills the code in).
 */
import { Layout } from './layout.tsx';
import { Notice } from './entry-forms.tsx';

export interface LoginPageProps {
  session: { name: string; role: string } | null;
  error?: string;
  name?: string;
}

export function LoginPage({ session, error, name = '' }: LoginPageProps) {
  return (
    <Layout title="Sign in">
      <h1>Sign in</h1>
      {session ? (
        <p class="signed-in">
          Signed in as <strong>{session.name}</strong> ({session.role}).
        </p>
      ) : null}
      <Notice error={error ?? null} />
      {/* No action: the form posts to the address it was shown at, so /login?next=/judge returns to /judge. */}
      <form method="post" class="stack-form login-form">
        <label>
          Name <input name="name" autocomplete="username" required value={name} />
        </label>
        <label>
          Password <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
      <p>
        Keeping score at a table? <a href="/join">Join with the table’s code</a>.
      </p>
      {session ? (
        <form method="post" action="/logout">
          <button type="submit" class="button-quiet">
            Sign out
          </button>
        </form>
      ) : null}
    </Layout>
  );
}

export interface JoinPageProps {
  code: string;
  /** The table the code names, when it names one. */
  found: { tournamentId: string; table: number; name: string } | null;
  error?: string;
}

export function JoinPage({ code, found, error }: JoinPageProps) {
  return (
    <Layout title="Join a table">
      <h1>Join a table</h1>
      <Notice error={error ?? null} />
      {found ? (
        <p>
          This code is for <strong>table {found.table}</strong> of {found.name}.
        </p>
      ) : null}
      {/* No action, as for signing in: /join?next=… comes back to the page that asked. */}
      <form method="post" class="stack-form join-form">
        <label>
          Table code{' '}
          <input name="code" value={code} required autocomplete="off" autocapitalize="characters" inputmode="text" maxlength={12} class="code-input" />
        </label>
        <button type="submit">{found ? `Keep score at table ${found.table}` : 'Join'}</button>
      </form>
    </Layout>
  );
}

export interface SessionListProps {
  csrf: string;
  /** The account's live sessions, the most recently used first. */
  sessions: { id: string; startedAt: string; seenAt: string; address: string; device: string; current: boolean }[];
}

/** A director's or judge's own sessions, each with a button that ends it. */
export function SessionList({ csrf, sessions }: SessionListProps) {
  const end = (session: string, label: string) => (
    <form method="post" action="/sessions/end">
      <input type="hidden" name="_csrf" value={csrf} />
      <input type="hidden" name="session" value={session} />
      <button type="submit" class="button-quiet">
        {label}
      </button>
    </form>
  );
  return (
    <section class="session-list" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Your sessions ({sessions.length})</h2>
      <p>Signed in on these devices. End any you do not recognise, or one left open on a shared machine; signing out ends them all.</p>
      <div class="table-scroll" role="region" aria-labelledby="sessions-title" tabindex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">From</th>
              <th scope="col">Device</th>
              <th scope="col">
                <span class="visually-hidden">End</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr data-session={s.current ? 'current' : 'other'}>
                <td>
                  <time datetime={s.startedAt}>{s.startedAt.slice(0, 16).replace('T', ' ')}</time>
                </td>
                <td>
                  <time datetime={s.seenAt}>{s.seenAt.slice(11, 16)}</time>
                </td>
                <td>{s.address}</td>
                <td>
                  {s.current ? <strong>this device: </strong> : null}
                  {s.device}
                </td>
                <td>{end(s.id, s.current ? 'Sign out here' : 'End')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {sessions.length > 1 ? end('others', 'End every other session') : null}
    </section>
  );
}
