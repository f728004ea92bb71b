/**
 * The page for an address that leads nowhere: what was asked for, in the site's own look, and
 * the way home.
 */
import { Layout } from './layout.tsx';

export interface NotFoundProps {
  /** What is missing, as a sentence. */
  message: string;
  /** The address asked for. */
  path?: string;
}

export function NotFoundPage({ message, path }: NotFoundProps) {
  return (
    <Layout title="Not found">
      <section class="not-found" aria-labelledby="not-found-title">
        <h1 id="not-found-title">Not found</h1>
        <p class="notice">{message}</p>
        {path ? (
          <p class="muted">
            The address was <code>{path}</code>.
          </p>
        ) : null}
        <p class="tournament-nav">
          <a href="/">See every tournament</a>
        </p>
      </section>
    </Layout>
  );
}
