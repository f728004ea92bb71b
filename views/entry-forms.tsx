/**
 * What every form that writes to the ledger carries, and how a page shows a refusal. Shared by
 * the table entry, the judge console and the director's pages, so each does it one way.
 */
import type { Child } from 'hono/jsx';
import { newCommandId } from '../events/command-ids.ts';

export interface FormKeys {
  /** The session's CSRF token. */
  csrf: string;
}

/**
 * The hidden fields of a changing form: the session's token and a command id made for this
 * render, so a double tap (or a retry after a dropped answer) records once.
 */
export function HiddenKeys({ csrf }: FormKeys) {
  return (
    <>
      <input type="hidden" name="_csrf" value={csrf} />
      <input type="hidden" name="commandId" value={newCommandId()} />
    </>
  );
}

export interface NoticeProps {
  error?: string | null;
  done?: string | null;
}

/** The refusal (what was wrong, and where) or the confirmation of the last request. */
export function Notice({ error, done }: NoticeProps) {
  if (error) {
    return (
      <p class="notice notice--error" role="alert" data-refusal>
        {error}
      </p>
    );
  }
  if (done) {
    return (
      <p class="notice notice--done" role="status">
        {done}
      </p>
    );
  }
  return null;
}

export interface PostFormProps extends FormKeys {
  action: string;
  /** The id of the region the answer replaces (htmx); a plain post reloads the page instead. */
  target?: string;
  class?: string;
  /**
   * A table entry (`play`, `bid`, `undo`…): static/outbox.js sends it, in order, and keeps it on
   * the phone while the network is down.
   */
  entry?: string;
  /** A question htmx asks once before an action that cannot be taken back. */
  confirm?: string;
  children?: Child;
}

/** A form that posts with htmx into `target` and still works as a plain form without scripts. */
export function PostForm({ action, target, csrf, children, class: className, entry, confirm }: PostFormProps) {
  return (
    <form
      method="post"
      action={action}
      class={className}
      {...(entry ? { 'data-entry': entry } : {})}
      {...(target ? { 'hx-post': action, 'hx-target': `#${target}`, 'hx-swap': 'outerHTML' } : {})}
      {...(confirm ? { 'hx-confirm': confirm } : {})}
    >
      <HiddenKeys csrf={csrf} />
      {children}
    </form>
  );
}
