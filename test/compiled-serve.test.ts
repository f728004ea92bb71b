/**
 * `spades serve` starts from the whole program compiled into one module (bin/compiled.js), so
 * the server runs without module hooks and the thread they keep. The module must stand on its
 * own: no project file left to load as TypeScript, and the static files, htmx and the ledger
 * reader's worker found where they are when the sources run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
      for (const [path, type] of [['/static/app.css', 'text/css'], ['/static/htmx.min.js', 'text/javascript'], ['/static/hx-sse.js', 'text/javascript']] as const) {
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
