/**
 * The page for a request the server failed to answer: said plainly, in the site's own look, with
 * the way back and the way home, and nothing of what went wrong inside (that goes to the log).
 */
import { Layout } from './layout.tsx';

export function ServerErrorPage() {
  return (
    <Layout title="Something went wrong">
      <section class="not-found" aria-labelledby="server-error-title">
        <h1 id="server-error-title">Something went wrong</h1>
        <p class="notice">This page could not be shown. Nothing you entered was lost; the problem has been noted for the organisers.</p>
        <p class="muted">Try again in a moment, or go back to the page you came from.</p>
        <p class="tournament-nav">
          <a href="/">See every tournament</a>
        </p>
      </section>
    </Layout>
  );
}
