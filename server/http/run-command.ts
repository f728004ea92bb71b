/**
 * How every writing route runs a command: the form's command id, scoped to the route, is
 * checked against the ledger first (a double tap answers as the first tap did), then the
 * decision is made and appended, signed with who asked.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Decision, ServedLedger } from '../../events/store/served-ledger.ts';
import { canonicalJson } from '../../events/hash-chain.ts';
import { CommandIdReusedError } from '../../events/store/append.ts';
import { CommandError } from '../commands/command-error.ts';
import { readInput } from './request-input.ts';
import { refusalOf, wantsJson } from './refusals.ts';
import { type Session, signedBy } from '../auth/sessions.ts';

const COMMAND_ID = /^[A-Za-z0-9_-]{8,80}$/;

/**
 * The ledger command id for a request: the form's id, scoped to what the route does, so an id
 * sent again to the same route is recognised and never used for another kind of entry.
 */
export function commandIdOf(input: Record<string, unknown>, scope: string): string | undefined {
  const id = input.commandId;
  if (id === undefined || id === '') return undefined;
  if (typeof id !== 'string' || !COMMAND_ID.test(id)) throw new CommandError('commandId must be 8 to 80 letters, digits, - or _');
  return `${scope}:${id}`;
}

/**
 * A digest of what a request asks for: the route, its fields (but the command id) and who asks.
 * Recorded with the command's first event, so a repeat of the id answers "already recorded"
 * only for the very same request, and the same id sent with another entry is a clash (409).
 */
export function requestDigest(path: string, input: Record<string, unknown>, who: string): string {
  const { commandId: _id, ...fields } = input;
  return createHash('sha256')
    .update(canonicalJson({ path, fields: JSON.parse(JSON.stringify(fields)) as unknown, who }))
    .digest('hex')
    .slice(0, 32);
}

/**
 * Whether a command id has already been recorded for this same request (a double tap or a
 * retry). The same id recorded for anything else is refused with a sentence naming the clash.
 */
export async function alreadyRecorded(ledger: ServedLedger, commandId: string | undefined, request?: string): Promise<boolean> {
  if (!commandId) return false;
  const first = await ledger.findCommand(commandId);
  if (!first) return false;
  if (request !== undefined && first.request !== null && first.request !== request) {
    throw new CommandIdReusedError(commandId, first.stream, first.stream, `at position ${first.position}; this request asks for something else`);
  }
  return true;
}

export interface CommandRequest {
  /** What the route does; scopes the form's command id. */
  scope: string;
  /** Decides from the request's fields; throws a refusal (CommandError, AccessError) to refuse. */
  decide: (input: Record<string, unknown>, session: Session) => { decision: Decision | Decision[]; done: string };
  /** Something to add to the confirmation once appended (a flagged card). */
  after?: () => string | null;
  /** The region an htmx request is answered with, showing the notice. */
  fragment: (notice: { error?: string; done?: string }) => string | Promise<string>;
  /** The whole page, for a plain form that was refused. */
  page: (notice: { error?: string; done?: string }) => string | Promise<string>;
  /** Where a plain form goes after it is recorded. */
  redirect: string;
  /** Reload the whole page after an htmx request (what the page shows has changed shape). */
  refresh?: boolean;
  /** What an API client hears besides the confirmation, once recorded (the teams a draw made). */
  answer?: () => Record<string, unknown>;
}

/**
 * Runs a command request the one way every writing route does: the command id first (a double
 * tap answers as the first tap did), then the decision and the append signed with who asked.
 * Answers JSON to API clients, the region to htmx, a redirect to a plain form; a refusal
 * answers the same way with its sentence and its 4xx status.
 */
export async function runCommand(c: Context, ledger: ServedLedger, session: Session, request: CommandRequest): Promise<Response> {
  try {
    const input = await readInput(c);
    const commandId = commandIdOf(input, request.scope);
    const digest = commandId ? requestDigest(c.req.path, input, `${session.role}:${session.name}`) : undefined;
    let done = '';
    let positions: number[] = [];
    let duplicate = false;
    if (await alreadyRecorded(ledger, commandId, digest)) {
      done = 'Already recorded.';
      duplicate = true;
    } else {
      // Decided from the models brought up to the file's head, and appended expecting the
      // versions it was decided from.
      const results = await ledger.append(
        () => {
          const decided = request.decide(input, session);
          done = decided.done;
          return decided.decision;
        },
        { ...(commandId ? { commandId, request: digest! } : {}), meta: signedBy(session) },
      );
      positions = results.flatMap((r) => r.positions);
      duplicate = results.length > 0 && results.every((r) => r.duplicate);
    }
    const flagged = duplicate ? null : (request.after?.() ?? null);
    if (flagged) done = `${done} Flagged: ${flagged}.`;
    if (wantsJson(c)) return c.json({ ok: true, done, positions, duplicate, ...(flagged ? { flagged } : {}), ...(duplicate ? {} : request.answer?.()) });
    if (c.req.header('hx-request')) {
      if (request.refresh) c.header('hx-refresh', 'true');
      return c.html(await request.fragment({ done }));
    }
    return c.redirect(request.redirect, 303);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    if (wantsJson(c)) return c.json({ error: refusal.message }, refusal.status);
    if (c.req.header('hx-request')) return c.html(await request.fragment({ error: refusal.message }), refusal.status);
    return c.html(await request.page({ error: refusal.message }), refusal.status);
  }
}
