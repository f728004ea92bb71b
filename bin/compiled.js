// Compiles a TypeScript entry of the project, with everything of the project it imports, into
// one plain JavaScript module beside the installed packages (node_modules/.cache/spades/, named
// by its content, so every process on the machine shares it and a changed source gets a new
// file). Started from that, a process needs no module hooks: those run on a thread of their own
// that costs a server tens of megabytes for as long as it runs, and compile every module anew
// at each start, about a second of a command's start.
//
// Beside each module is the list of the sources it was compiled from, with each one's size and
// modification time. While every source still has both, the module is taken as it is, without
// compiling anything: a command then starts in the time Node takes to load one file. A source
// saved since, added to or dropped from what the entry imports (which changes a file it was
// compiled from) has it compiled again.
//
// The sources read their own location (import.meta.url) to find the static files and the
// project's root; every such file lives in a room of server/ (server/ROOM/), so in the one module
// it is set to a file at that depth, and they find the same places as when they run from their
// sources.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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
    const sources = join(cacheDir, `${name}.${sourcesKey(entry)}.sources.json`);
    const kept = keptModule(sources, cacheDir);
    if (kept) return pathToFileURL(kept).href;
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: [join(ROOT, entry)],
      absWorkingDir: ROOT,
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
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    // esbuild compiles in a service process of its own; nothing more is asked of it for now.
    await esbuild.stop();
    const code = result.outputFiles[0].text;
    const digest = createHash('sha256').update(code).digest('hex').slice(0, 16);
    const module = `${name}.${digest}.mjs`;
    const file = join(cacheDir, module);
    mkdirSync(cacheDir, { recursive: true });
    if (!existsSync(file)) writeWhole(file, code);
    // Stated after the module is whole, so a list on disk always names a module that is there.
    const inputs = Object.keys(result.metafile.inputs).map((path) => [path, ...stamp(join(ROOT, path))]);
    writeWhole(sources, JSON.stringify({ module, inputs }));
    return pathToFileURL(file).href;
  } catch {
    return null;
  }
}

/**
 * Names the sources list of one entry compiled by this code for this Node at this place: a
 * list written by another checkout sharing the packages, another Node or other compile
 * options is not this one's.
 */
function sourcesKey(entry) {
  const self = readFileSync(fileURLToPath(import.meta.url));
  return createHash('sha256').update(`${ROOT}\0${entry}\0${process.versions.node}\0`).update(self).digest('hex').slice(0, 16);
}

/** A source's size and modification time, to the nanosecond, as text. */
function stamp(path) {
  const stat = statSync(path, { bigint: true });
  return [String(stat.size), String(stat.mtimeNs)];
}

/** The module a sources list names, when it is there and every source still has its size and time; null otherwise. */
function keptModule(sources, cacheDir) {
  let list;
  try {
    list = JSON.parse(readFileSync(sources, 'utf8'));
  } catch {
    return null;
  }
  const file = join(cacheDir, list.module);
  if (!existsSync(file)) return null;
  for (const [path, size, mtime] of list.inputs) {
    let now;
    try {
      now = stamp(join(ROOT, path));
    } catch {
      return null;
    }
    if (now[0] !== size || now[1] !== mtime) return null;
  }
  return file;
}

/** Writes a file whole under another name, then renames it: a process starting at the same moment sees it complete or not at all. */
function writeWhole(file, text) {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}
