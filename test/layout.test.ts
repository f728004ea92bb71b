/**
 * How the source is laid out: no module under server/ grows past 350 lines (split it by
 * concern instead), and the views stay below the server: nothing under views/ imports from
 * server/, and no server module a view might import from imports a view in turn.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const MAX_LINES = 350;
const SOURCE = /\.(ts|tsx|js|mjs)$/;

/** Every source file below `folder`, as a path from the repository's root. */
function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/** Lines as `wc -l` counts them. */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The files a module imports (static, re-exported or loaded on demand), as paths from the root; packages are left out. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const target = match[1] ?? match[2] ?? match[3]!;
    if (target.startsWith('.')) found.push(relative(ROOT, resolve(ROOT, dirname(file), target)));
  }
  return found;
}

const under = (folder: string) => (path: string) => path === folder || path.startsWith(`${folder}/`);

describe('source layout', () => {
  it(`keeps every file under server/ to ${MAX_LINES} lines`, () => {
    const files = sources('server');
    expect(files.length).toBeGreaterThan(0);
    const long = files
      .map((file) => ({ file, lines: lineCount(readFileSync(join(ROOT, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long, 'split these by concern').toEqual([]);
  });

  it('has no view importing from server/', () => {
    const crossing = sources('views').flatMap((file) => importsOf(file).filter(under('server')).map((target) => `${file} imports ${target}`));
    expect(crossing).toEqual([]);
  });

  it('has no server module that views import from importing views in turn', () => {
    // Followed through everything such a module imports: a view reached by any path is a cycle.
    const cycles: string[] = [];
    const seen = new Set<string>();
    const queue = sources('views').flatMap((file) => importsOf(file).filter(under('server')).map((target) => [target, `${file} → ${target}`] as const));
    while (queue.length > 0) {
      const [file, path] = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const target of importsOf(file)) {
        if (under('views')(target)) cycles.push(`${path} → ${target}`);
        else if (SOURCE.test(target) && !under('node_modules')(target)) queue.push([target, `${path} → ${target}`]);
      }
    }
    expect(cycles).toEqual([]);
  });

  it('reads every kind of import the checks rely on', () => {
    // The checks above are only as good as the import scan; a server module it cannot see would pass unnoticed.
    expect(importsOf('bin/spades.js')).toContain('server/cli/main.ts');
    expect(importsOf('server/cli/command-table.ts')).toContain('server/serve.ts');
    expect(importsOf('server/app.ts')).toContain('server/live-pages.tsx');
    expect(importsOf('views/layout.tsx').every((path) => !path.startsWith('..'))).toBe(true);
  });
});
