/**
 * Every `spades` command starts from the whole program compiled into one module
 * (bin/compiled.js), so the server runs without module hooks and the thread they keep, and a
 * command does not compile its sources at every start. The module must stand on its own: no
 * project file left to load as TypeScript, and the static files, htmx and the ledger reader's
 * worker found where they are when the sources run. It is kept between starts while its sources
 * are unchanged, and compiled again once one changes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledEntry } from '../bin/compiled.js';
import { ROOT, killHard, untilListening } from './fixtures/live-server.ts';

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'spades-compiled-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is one module that serves pages, static files, streams and ledger-wide reads with Node’s own loader only', async () => {
    // In the project's own cache, beside the packages it imports, as bin/spades.js writes it.
    const compiled = await compiledEntry('server/cli/main.ts', 'spades-cli');
    expect(compiled).not.toBeNull();
    const code = readFileSync(fileURLToPath(compiled!), 'utf8');
    expect(code).not.toMatch(/from ['"]\.{1,2}\//);
    expect(code).not.toMatch(/import\(['"][^'"]+\.tsx?['"]\)/);

    // Started with no hooks registered: a module that still needed TypeScript compiled would fail to load.
    const entry = join(temp(), 'serve.mjs');
    writeFileSync(entry, `const { main } = await import(${JSON.stringify(compiled)});\nprocess.exitCode = await main(['serve']);\n`);
    const child = spawn(process.execPath, [entry], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: temp(), PORT: '0', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const port = await untilListening(child);
      const base = `http://localhost:${port}`;
      for (const [path, type] of [
        ['/static/app.css', 'text/css'],
        ['/static/htmx.min.js', 'text/javascript'],
        ['/static/hx-sse.js', 'text/javascript'],
      ] as const) {
        const res = await fetch(`${base}${path}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type'), path).toContain(type);
        expect((await res.text()).length, path).toBeGreaterThan(100);
      }
      const screen = await fetch(`${base}/screen`);
      expect(screen.status).toBe(200);
      expect(await screen.text()).toContain('Pitt Boss Spades (demo)');
      // The ledger-wide reads run on the reader's worker, itself started from its compiled module.
      const verify = await fetch(`${base}/verify`);
      expect(verify.status, await verify.clone().text()).toBe(200);
      expect(await verify.text()).toMatch(/verif/i);
    } finally {
      await killHard(child);
    }
  }, 60_000);
});

describe('a compiled module kept between starts', () => {
  it('is taken as it is while its sources are unchanged, and compiled again once one changes', async () => {
    // A small entry of two sources (compiledEntry takes its path from the project's root).
    const sources = temp();
    writeFileSync(join(sources, 'entry.ts'), "import { word } from './word.ts';\nexport const said: string = word;\n");
    writeFileSync(join(sources, 'word.ts'), "export const word = 'first';\n");
    const entry = relative(ROOT, join(sources, 'entry.ts'));
    const cache = temp();
    const listed = () => readdirSync(cache).filter((f) => f.endsWith('.sources.json'));

    const first = await compiledEntry(entry, 'probe', cache);
    expect(first).not.toBeNull();
    expect(((await import(first!)) as { said: string }).said).toBe('first');
    // The module and the list of what it was compiled from, with nothing half-written beside them.
    expect(listed()).toHaveLength(1);
    expect(readdirSync(cache).sort()).toEqual([fileURLToPath(first!).slice(cache.length + 1), listed()[0]].sort());
    const list = join(cache, listed()[0]!);
    const { inputs } = JSON.parse(readFileSync(list, 'utf8')) as { inputs: [string, string, string][] };
    expect(inputs.map(([path]) => path).sort()).toEqual([entry, relative(ROOT, join(sources, 'word.ts'))].sort());

    // A compile always writes the list again; a start that finds its sources unchanged leaves it be.
    const listedAt = statSync(list, { bigint: true }).mtimeNs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await compiledEntry(entry, 'probe', cache)).toBe(first);
    expect(statSync(list, { bigint: true }).mtimeNs).toBe(listedAt);

    // A source saved with other words gives another module, saying them.
    writeFileSync(join(sources, 'word.ts'), "export const word = 'second';\n");
    const second = await compiledEntry(entry, 'probe', cache);
    expect(second).not.toBe(first);
    expect(((await import(second!)) as { said: string }).said).toBe('second');
    expect(statSync(list, { bigint: true }).mtimeNs).not.toBe(listedAt);

    // A module gone from the cache is compiled again, not looked for.
    rmSync(fileURLToPath(second!));
    expect(await compiledEntry(entry, 'probe', cache)).toBe(second);
    expect(statSync(fileURLToPath(second!)).size).toBeGreaterThan(0);
  });
});
