// Compiles a TypeScript entry of the project, with everything of the project it imports, into
// one plain JavaScript module beside the installed packages (node_modules/.cache/spades/, named
// by its content, so every process on the machine shares it and a changed source gets a new
// file). Started from that, a process needs no module hooks: those run on a thread of their own
// that costs a server tens of megabytes for as long as it runs.
//
// The sources read their own location (import.meta.url) to find the static files and the
// project's root; every such file lives in a room of server/ (server/ROOM/), so in the one module
// it is set to a file at that depth, and they find the same places as when they run from their
// sources.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where compiled modules are kept: beside the packages they import. */
export const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'spades');

/**
 * The URL of `entry` (a path from the project's root) compiled into one module named `name`
 * and its content's digest in `cacheDir`, or null when it cannot be compiled or written (a
 * read-only install): the caller then loads the TypeScript through the hooks, with more
 * memory and the same behaviour.
 */
export async function compiledEntry(entry, name, cacheDir = CACHE_DIR) {
  try {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: [join(ROOT, entry)],
      bundle: true,
      // Packages stay imports, resolved from the project's node_modules like the sources' own.
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node}`,
      jsx: 'automatic',
      jsxImportSource: 'hono/jsx',
      define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(ROOT, 'server', 'app', 'compiled-entry.js')).href) },
      sourcemap: 'inline',
      sourceRoot: ROOT,
      write: false,
      logLevel: 'silent',
    });
    // esbuild compiles in a service process of its own; nothing more is asked of it for now.
    await esbuild.stop();
    const code = result.outputFiles[0].text;
    const digest = createHash('sha256').update(code).digest('hex').slice(0, 16);
    const file = join(cacheDir, `${name}.${digest}.mjs`);
    if (!existsSync(file)) {
      mkdirSync(cacheDir, { recursive: true });
      // Written whole under another name, then renamed: a process starting at the same moment
      // sees the file complete or not at all.
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, code);
      renameSync(partial, file);
    }
    return pathToFileURL(file).href;
  } catch {
    return null;
  }
}
