/**
 * The rules' reading that code, tests and docs cite lives in the repository (docs/spec/), and
 * every citation of it resolves: the file cited exists, and each section named right after it
 * (`docs/spec/rules.md "Scoring a hand" and "Bidding"`) is a heading of that file.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const THIS = relative(ROOT, import.meta.filename);
const FOLDERS = ['engine', 'events', 'server', 'views', 'static', 'test', 'bench', 'scripts', 'bin', 'docs', 'deploy'];
const TEXT = /\.(ts|tsx|js|mjs|md|json|css|conf)$/;

// A citation: the file (docs/spec/x.md, or spec/x.md read as the same), then any section titles in quotes.
const CITATION = /(?<![\w/.-])((?:docs\/)?spec\/[\w.-]+\.md)((?:\s*(?:,|and)?\s*"[^"\n]+")*)/g;

export interface Citation {
  where: string;
  file: string;
  sections: string[];
}

/** Every citation of the spec in `text`, found at `where`. */
export function citationsIn(text: string, where: string): Citation[] {
  return [...text.matchAll(CITATION)].map((match) => ({
    where,
    file: match[1]!.startsWith('docs/') ? match[1]! : `docs/${match[1]!}`,
    sections: [...match[2]!.matchAll(/"([^"\n]+)"/g)].map((title) => title[1]!),
  }));
}

/** What is wrong with a citation, as sentences: a file that is not there, or a section it has no heading for. */
export function unresolved(citation: Citation, root: string): string[] {
  const path = join(root, citation.file);
  if (!existsSync(path)) return [`${citation.where} cites ${citation.file}, which is not in the repository`];
  const headings = new Set([...readFileSync(path, 'utf8').matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((heading) => heading[1]!));
  return citation.sections
    .filter((section) => !headings.has(section))
    .map((section) => `${citation.where} cites ${citation.file} "${section}", which has no such section`);
}

function textFiles(): string[] {
  const files = ['README.md'];
  for (const folder of FOLDERS) {
    if (!existsSync(join(ROOT, folder))) continue;
    for (const entry of readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && TEXT.test(entry.name)) files.push(relative(ROOT, join(entry.parentPath, entry.name)));
    }
  }
  return files.filter((file) => file !== THIS && !file.includes('node_modules'));
}

describe('the spec the code cites', () => {
  const citations = textFiles().flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => citationsIn(line, `${file}:${i + 1}`)),
  );

  it('is in the repository, with the sections the code and tests name', () => {
    expect(existsSync(join(ROOT, 'docs/spec/rules.md'))).toBe(true);
    expect(existsSync(join(ROOT, 'docs/spec/game-record.md'))).toBe(true);
    // The engine and its tests cite it: the scan finds them, sections and all.
    expect(citations.some((c) => c.where.startsWith('engine/scoring.ts') && c.sections.includes('Scoring a hand'))).toBe(true);
    expect(citations.some((c) => c.where.startsWith('test/preset-tables.test.ts') && c.sections.join() === 'Preset ids,Deck and trumps')).toBe(true);
    expect(citations.filter((c) => c.file === 'docs/spec/game-record.md').length).toBeGreaterThanOrEqual(3);
    expect(citations.flatMap((c) => unresolved(c, ROOT))).toEqual([]);
  });

  it('fails a citation of a file that is not there, or of a section the file does not have', () => {
    const [missingFile] = citationsIn('as spec/tables.md "Seating" says', 'planted.ts:1');
    expect(unresolved(missingFile!, ROOT)).toEqual(['planted.ts:1 cites docs/spec/tables.md, which is not in the repository']);
    const [missingSection] = citationsIn('docs/spec/rules.md "Bidding" and "Scoring a trick"', 'planted.ts:2');
    expect(missingSection!.sections).toEqual(['Bidding', 'Scoring a trick']);
    expect(unresolved(missingSection!, ROOT)).toEqual(['planted.ts:2 cites docs/spec/rules.md "Scoring a trick", which has no such section']);
    const [whole] = citationsIn('(see `spec/game-record.md`)', 'planted.md:3');
    expect(whole).toEqual({ where: 'planted.md:3', file: 'docs/spec/game-record.md', sections: [] });
    expect(unresolved(whole!, ROOT)).toEqual([]);
  });
});
