/**
 * The ledger reader's worker starts from one compiled JavaScript module rather than from
 * TypeScript (which would need module hooks, and their thread, of its own): the module is
 * written once per content, whole or not at all, and where it cannot be written the worker
 * starts from the TypeScript entry instead.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { TYPESCRIPT_ENTRY, readerWorkerFile } from '../server/audit/reader-worker-file.ts';

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'spades-reader-file-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the ledger reader worker’s file', () => {
  it('is one compiled module, named by its content, written once and shared', async () => {
    const cache = join(temp(), 'cache');
    const url = await readerWorkerFile(cache);
    expect(url.protocol).toBe('file:');
    const file = fileURLToPath(url);
    expect(file.startsWith(cache)).toBe(true);
    expect(file).toMatch(/ledger-reader-worker\.[0-9a-f]{16}\.mjs$/);
    const code = readFileSync(file, 'utf8');
    // Plain JavaScript: no TypeScript left for a loader to strip, and no project module imported.
    expect(code).not.toMatch(/from ['"]\.{1,2}\//);
    expect(code).not.toMatch(/\.tsx?['"]/);
    expect(code).toContain('better-sqlite3');
    // Beside it only the list of the sources it was compiled from; nothing half-written.
    const beside = readdirSync(cache).filter((f) => f !== file.slice(cache.length + 1));
    expect(beside).toHaveLength(1);
    expect(beside[0]).toMatch(/^ledger-reader-worker\.[0-9a-f]{16}\.sources\.json$/);

    const written = statSync(file).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readerWorkerFile(cache)).toEqual(url);
    expect(statSync(file).mtimeMs).toBe(written);
  });

  it('falls back to the TypeScript entry where the module cannot be written', async () => {
    const blocked = join(temp(), 'not-a-folder');
    writeFileSync(blocked, 'a file where the cache folder would go');
    expect(await readerWorkerFile(join(blocked, 'cache'))).toEqual(TYPESCRIPT_ENTRY);
  });

  it('answers from the project’s cache in a worker with no module hooks of its own', async () => {
    const url = await readerWorkerFile();
    expect(url).not.toEqual(TYPESCRIPT_ENTRY);
    expect(existsSync(fileURLToPath(url))).toBe(true);
    const path = join(temp(), 'ledger.db');
    openLedger({ path }).close();
    // Started with Node's own loader only: a worker that needed TypeScript compiled would fail to load.
    const worker = new Worker(url, { workerData: { path }, execArgv: [] });
    try {
      const answer = await new Promise<unknown>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ id: 1, op: 'positionAt', args: [Date.now()] });
      });
      expect(answer).toEqual({ id: 1, value: 0 });
    } finally {
      await worker.terminate();
    }
  });
});
