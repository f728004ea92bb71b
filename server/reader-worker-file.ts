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
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The worker's entry when it compiles its TypeScript itself. */
export const TYPESCRIPT_ENTRY = new URL('../bin/ledger-reader-worker.js', import.meta.url);

/** Where compiled readers are kept: beside the packages they import. */
export const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'spades');

/** Where a compiled reader with this content lives. */
export function compiledReaderPath(code: string, cacheDir = CACHE_DIR): string {
  const digest = createHash('sha256').update(code).digest('hex').slice(0, 16);
  return join(cacheDir, `ledger-reader-worker.${digest}.mjs`);
}

/**
 * Compiles the reader into one module and writes it where packages resolve from, unless a
 * file with the same content is there already. Resolves with the URL to start the worker
 * from: the compiled file, or the TypeScript entry when compiling or writing failed.
 */
export async function readerWorkerFile(cacheDir = CACHE_DIR): Promise<URL> {
  try {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [join(ROOT, 'server', 'ledger-reader-worker.ts')],
      bundle: true,
      // Packages stay imports, resolved from the project's node_modules like the server's own.
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node}`,
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.text;
    const file = compiledReaderPath(code, cacheDir);
    if (!existsSync(file)) {
      mkdirSync(cacheDir, { recursive: true });
      // Written whole under another name, then renamed: a process starting at the same moment
      // sees the file complete or not at all.
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, code);
      renameSync(partial, file);
    }
    return pathToFileURL(file);
  } catch {
    return TYPESCRIPT_ENTRY;
  }
}
