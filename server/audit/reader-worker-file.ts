/**
 * The file the ledger reader's worker thread starts from. The project's TypeScript is compiled
 * as Node loads it, by module hooks that run on a thread of their own; a worker started from
 * TypeScript would need hooks (and that thread) of its own as well, a third of its memory. So
 * the reader is compiled once, into one plain JavaScript module beside the installed packages
 * (`node_modules/.cache/spades/`, named by its content, so every process on the machine shares
 * it and a changed source gets a new file), and the worker starts from that.
 *
 * Where it cannot be written (a read-only install), the worker starts from the TypeScript entry
 * with its own hooks: more memory, the same answers.
 */
import { CACHE_DIR, compiledEntry } from '../../bin/compiled.js';

/** The worker's entry when it compiles its TypeScript itself. */
export const TYPESCRIPT_ENTRY = new URL('../../bin/ledger-reader-worker.js', import.meta.url);

/**
 * Compiles the reader into one module and writes it where packages resolve from, unless a
 * file with the same content is there already. Resolves with the URL to start the worker
 * from: the compiled file, or the TypeScript entry when compiling or writing failed.
 */
export async function readerWorkerFile(cacheDir = CACHE_DIR): Promise<URL> {
  const compiled = await compiledEntry('server/audit/ledger-reader-worker.ts', 'ledger-reader-worker', cacheDir);
  return compiled ? new URL(compiled) : TYPESCRIPT_ENTRY;
}
