/**
 * Where stored read models differ from the models the chain folds to, named by the path of the
 * first value that differs: what an audit of a snapshot reports, on either store.
 */
import { isDeepStrictEqual } from 'node:util';

/** A stored read-model snapshot, checked against the chain folded again up to its position. */
export interface SnapshotReport {
  /** The shape of read models it holds (`models-6`). */
  name: string;
  position: number;
  /** Whether this version of the program starts from it; older shapes are never read. */
  inUse: boolean;
  /** Whether it equals the chain folded up to its position. */
  ok: boolean;
  /** Where it differs first, when it does. */
  difference?: string;
}

/** The path of the first value where `stored` is not what the chain folds to. */
export function firstDifference(folded: unknown, stored: unknown, path: string): string | null {
  if (isDeepStrictEqual(folded, stored)) return null;
  if (typeof folded !== 'object' || folded === null || typeof stored !== 'object' || stored === null || Array.isArray(folded) !== Array.isArray(stored)) {
    return `${path || 'the models'}: the chain folds to ${brief(folded)}, the snapshot holds ${brief(stored)}`;
  }
  const keys = new Set([...Object.keys(folded), ...Object.keys(stored)]);
  for (const key of keys) {
    const inner = firstDifference((folded as Record<string, unknown>)[key], (stored as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
    if (inner) return inner;
  }
  return null;
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
