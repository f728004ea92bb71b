/**
 * The browser scripts in static/ are type-checked with the rest (tsconfig.json's checkJs, their
 * types written in JSDoc), so `npm run typecheck` and the check before every merge read them:
 * every script is in the program, none has an error, and a wrong type in such a script is caught.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** tsconfig.json as tsc reads it. */
function config(): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(String(d.messageText));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  return parsed;
}

/** The errors tsc finds in these files, compiled with tsconfig.json's options, as "file(line): message". */
function errors(files: readonly string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram(files, options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('the browser scripts', () => {
  const parsed = config();
  const scripts = readdirSync(join(ROOT, 'static'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => join(ROOT, 'static', name));

  it('are every one in the program tsconfig.json checks, as JavaScript to be checked', () => {
    expect(scripts.length).toBeGreaterThanOrEqual(6);
    expect(parsed.options.allowJs).toBe(true);
    expect(parsed.options.checkJs).toBe(true);
    const files = new Set(parsed.fileNames.map((file) => resolve(file)));
    expect(scripts.filter((file) => !files.has(file))).toEqual([]);
  });

  it('have no type error', () => {
    expect(errors(scripts, parsed.options)).toEqual([]);
  });

  it('would have a wrong type caught', () => {
    const dir = mkdtempSync(join(tmpdir(), 'static-types-'));
    try {
      const planted = join(dir, 'planted.js');
      // Each is the kind of slip the scripts were fixed for: a maybe-missing element, a wrong argument.
      writeFileSync(
        planted,
        [
          '(function () {',
          "  document.querySelector('[data-connection]').hidden = false;",
          '  /** @param {number} left */',
          '  function clockText(left) { return String(left); }',
          "  clockText('37:21');",
          '})();',
          '',
        ].join('\n'),
      );
      const found = errors([planted], parsed.options);
      expect(found.some((e) => e.includes('planted.js(2)'))).toBe(true);
      expect(found.some((e) => e.includes('planted.js(5)'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
