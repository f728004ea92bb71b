/**
 * Command ids as forms carry them: made when a form is rendered, so a double tap (or a retry
 * after a dropped answer) sends the same id and the ledger records the entry once.
 */
import { randomBytes } from 'node:crypto';

/** A fresh command id for a form: a double tap of the same form sends the same id. */
export function newCommandId(): string {
  return randomBytes(12).toString('base64url');
}
