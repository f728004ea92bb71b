/**
 * How a refused request is answered: the status and the sentence saying what was wrong, as JSON
 * for API clients and as a short page (or fragment) for browsers.
 */
import type { Context } from 'hono';
import { LedgerBusyError, LedgerReadError } from '../../events/store/served-ledger.ts';
import { AppendRefusedError, CommandIdReusedError, LedgerUnavailableError, VersionConflictError } from '../../events/store/append.ts';
import { InvalidPayloadError } from '../../events/event-registry.ts';
import { CommandError } from '../commands/command-error.ts';

/** Every status a refusal is answered with. */
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503;

/** A refusal of the request itself (who is asking, or how), answered with its status. */
export class AccessError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 401 | 403 | 404 | 413 | 429 | 503,
  ) {
    super(message);
  }
}

/** Whether the client asked for JSON (an API client) rather than a page or an htmx fragment. */
export function wantsJson(c: Context): boolean {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) return true;
  const accept = c.req.header('accept') ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/**
 * What a decision made ready beforehand is answered when its stream moved on before it was
 * recorded. A command that decides from the ledger is decided again instead and never hears it.
 */
export const RECORDED_MEANWHILE = 'something else was recorded here at the same moment, so this was not recorded; what is recorded now is on the page';

/** The status and sentence of a refused request, or null for an error that is the server's own fault. */
export function refusalOf(error: unknown): { status: RefusalStatus; message: string } | null {
  if (error instanceof CommandError || error instanceof AccessError) return { status: error.status, message: error.message };
  if (error instanceof LedgerUnavailableError || error instanceof LedgerReadError || error instanceof LedgerBusyError)
    return { status: 503, message: error.message };
  // The store's words name streams and versions: a person hears what happened, in the room's.
  if (error instanceof VersionConflictError) return { status: 409, message: RECORDED_MEANWHILE };
  if (error instanceof CommandIdReusedError) return { status: 409, message: error.message };
  if (error instanceof InvalidPayloadError || error instanceof AppendRefusedError) return { status: 400, message: error.message };
  return null;
}

/** Answers a refused request: JSON for API clients, a short page (or fragment) otherwise. */
export function refuse(c: Context, status: RefusalStatus, message: string): Response {
  if (wantsJson(c)) return c.json({ error: message }, status);
  const signIn = status === 401 ? ' <a href="/login">Sign in</a> or <a href="/join">join a table</a>.' : '';
  return c.html(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Refused</title><link rel="stylesheet" href="/static/app.css"></head><body><main class="page-main"><p class="notice notice--error" role="alert">${escapeHtml(message)}.${signIn}</p></main></body></html>`,
    status,
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}
