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
      <form method="post" action="/login" class="stack-form">
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
      <form method="post" action="/join" class="stack-form">
        <label>
          Table code{' '}
          <input name="code" value={code} required autocomplete="off" autocapitalize="characters" inputmode="text" maxlength={12} class="code-input" />
        </label>
        <button type="submit">{found ? `Keep score at table ${found.table}` : 'Join'}</button>
      </form>
    </Layout>
  );
}
