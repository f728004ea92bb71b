/**
 * The HTML document every venue page shares. The site sends a Content-Security-Policy without
 * inline styles or scripts, so everything here is a class, a served file or a meta tag.
 */
import type { Child } from 'hono/jsx';
import { raw } from 'hono/html';

export interface LayoutProps {
  title: string;
  children?: Child;
  /** The venue screen: dark, large type, fixed 1920×1080 frame, no scrolling, no site chrome. */
  screen?: boolean;
  /**
   * A region framed by another site: no site chrome and no sign-in, as wide as the frame the
   * host page gives it, and every link opening outside the frame (this site's pages may not be framed).
   */
  embed?: boolean;
  /** Keeps the page live: the SSE stream whose `<hx-partial>` blocks update its regions. */
  live?: { url: string };
  /** Who is signed in, for the header (staff pages); the public sees a sign-in link. */
  signedIn?: string;
  /** The page's own scripts (served files under /static), after htmx. */
  scripts?: string[];
  /** Attributes of the body, for a page's scripts to read (data-*). */
  data?: Record<string, string>;
}

// htmx would otherwise add its indicator stylesheet at run time, which the policy refuses.
// A venue screen waits at most 5 s between reconnects (htmx's default backs off to a minute),
// so a screen is back within seconds of the server's return.
const HTMX_CONFIG = JSON.stringify({ includeIndicatorCSS: false, sse: { reconnectMaxDelay: 5000 } });

/** The full page around `children`, with the stylesheet, htmx and its SSE extension. */
export function Layout({ title, children, screen = false, embed = false, live, signedIn, scripts, data }: LayoutProps) {
  const main = (
    <main id="main" class={screen ? 'screen-main' : embed ? 'embed-main' : 'page-main'}>
      {children}
    </main>
  );
  return (
    <>
      {raw('<!DOCTYPE html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content={screen ? 'dark' : 'light'} />
          <meta name="htmx-config" content={HTMX_CONFIG} />
          <title>{title}</title>
          <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
          <link rel="stylesheet" href="/static/app.css" />
          <link rel="stylesheet" href="/static/entry.css" />
          {embed ? <base target="_blank" /> : null}
        </head>
        <body class={screen ? 'screen' : embed ? 'page embed' : 'page'} {...(data ?? {})}>
          {screen || embed ? null : (
            <>
              <a class="skip-link" href="#main">
                Skip to content
              </a>
              <header class="site-header">
                <a class="site-name" href="/">
                  Spades
                </a>
                <a class="site-sign-in" href="/login">
                  {signedIn ? `${signedIn} · sign out` : 'Sign in'}
                </a>
              </header>
            </>
          )}
          {live ? (
            <>
              {/* Shown by live-status.js while the page's stream is down. */}
              <p class="connection-badge" data-connection="ok" role="status" hidden>
                Reconnecting… {screen ? 'scores may be behind' : 'this page may be behind'}
              </p>
              {/*
                hx-swap="none": a message updates only the regions its partials name; the
                stream reconnects by itself and resumes from the last event id it saw.
              */}
              <div class="live" hx-sse:connect={live.url} hx-swap="none">
                {main}
              </div>
            </>
          ) : (
            main
          )}
          {/*
            At the end of the body and not deferred: htmx starts on DOMContentLoaded only when it
            runs while the page is still loading. Run deferred, it starts on a timer, and on a slow
            machine could start before hx-sse.js had registered the SSE extension, leaving the
            page without its live stream.
          */}
          <script src="/static/htmx.min.js"></script>
          <script src="/static/hx-sse.js"></script>
          {/* Ticks match clocks between ledger events from their data-deadline. */}
          <script src="/static/clock.js"></script>
          {live ? <script src="/static/live-status.js"></script> : null}
          {scripts?.map((src) => (
            <script src={src}></script>
          ))}
        </body>
      </html>
    </>
  );
}
