/**
 * The envelope for live updates. An SSE message made only of these blocks changes several
 * regions of a page at once, and the page's live wrapper swaps nothing itself (hx-swap="none"),
 * so a message can never blank the page around the regions it names.
 */
import type { Child } from 'hono/jsx';

export interface PartialProps {
  /** The id (without '#') of the element the content replaces; the content must carry the same id. */
  target: string;
  children?: Child;
}

/** Wraps a live component so htmx replaces the element with id `target` by it. */
export function Partial({ target, children }: PartialProps) {
  // outerHTML, not innerHTML: the component re-renders its own root element, so its classes
  // (live, finished, dimmed) change along with its content.
  return (
    <hx-partial hx-target={idSelector(target)} hx-swap="outerHTML">
      {children}
    </hx-partial>
  );
}

/**
 * A selector for an element id. Ids here embed ledger ids (`table-<gameId>`), which may hold
 * characters such as '.' or ':' that a bare `#id` selector would misread.
 */
export function idSelector(id: string): string {
  return '#' + id.replace(/[^A-Za-z0-9_-]/g, (c) => '\\' + c);
}
