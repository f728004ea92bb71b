/**
 * How the source is laid out: no module under server/ grows past 350 lines (split it by
 * concern instead), and the views stay below the server: nothing under views/ imports from
 * server/, and no server module a view might import from imports a view in turn.
 *
 * server/ is in rooms, by who uses what is in them: a room for each kind of user's routes, the
 * rooms those routes share, the app that assembles them, `spades serve` and the command line.
 * Which room may import which is held below, so a route's helper that another kind of user
 * comes to need moves to a shared room instead of tying two users' routes together.
 *
 * The ledger's stores each have a folder (events/store/sqlite, events/store/postgres) behind one
 * interface (events/store/served-ledger.ts, with append.ts what both stores share): neither store
 * imports the other, the interface imports neither, and the rooms of routes, what they share and
 * the app that assembles them reach the ledger only through the interface. Sign-in keeps its state
 * the same way: one interface (server/auth/storage/auth-storage.ts) with an adapter per store
 * beside it (sqlite.ts, postgres.ts), each importing its own store alone, and nothing else of the
 * room importing a store; so do the auditors' heavy reads (server/audit/storage/heavy-reads.ts).
 * A room never keeps a store's twin of a module (`pg-*.ts` beside the SQLite one): what differs
 * by store goes in the adapters, and what does not is written once above them.
 *
 * Across every folder: the rules and what every kind of user's requests go through (server/api,
 * server/commands, events, engine) import no view; no module of the product names a store's
 * adapter outside events/store but a room's storage adapter and the few modules listed below,
 * each with its reason; and no module imports itself round a runtime cycle.
 *
 * The test suites that share one thread (vitest.config.ts) start nothing that would outlive them.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, runtimeCycles, storeAdapterImports, storeRoleGaps, viewImportsBelow } from './fixtures/import-graph.ts';
import { SHARED_THREAD_SUITES } from '../vitest.config.ts';
import { CHROMIUM_ARGS, featuresLeftOn } from './fixtures/shared-chromium.ts';

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

/** The rooms of server/, and what each holds. */
const ROOMS: Record<string, string> = {
  commands: 'what may be recorded: each command decided from the read models into events, or refused',
  http: 'the request plumbing routes share: refusals, inputs, addresses, body limits, same origin, running a command',
  auth: 'who asks: accounts, sessions, the sign-in pages, rate limits, table codes and where they are stored',
  live: 'server-sent events: the broadcaster and the public event feed',
  api: 'the public read API: its resources answered from the read models, checked and documented by one set of zod schemas',
  audience: 'the public pages and screens',
  director: 'the director’s desk',
  entry: 'the table scorekeeper’s entry',
  judge: 'the judge’s console',
  audit: 'the auditor’s pages and the heavy reads kept off the live loop',
  series: 'the circuit’s pages: series, players across events, and the director’s series desk',
  app: 'the HTTP app assembled from the rooms, and what each live page’s stream carries',
  serve: '`spades serve`: its back ends, the demo and the demo’s table bots',
  cli: 'the `spades` command line',
};
/** Rooms every kind of user's routes build on. */
const SHARED = ['commands', 'http', 'auth', 'live', 'api'];
/** Rooms of routes, each for one kind of user. */
const ROUTES = ['audience', 'director', 'entry', 'judge', 'audit', 'series'];

/** The room a path under server/ is in (its first folder there), or null for a path elsewhere. */
function roomOf(path: string): string | null {
  const parts = path.split('/');
  return parts[0] === 'server' && parts.length > 2 ? parts[1]! : null;
}

/** Which room may import which: each rule names an import from one room into another it forbids. */
const ROOM_RULES: { rule: string; forbids: (from: string, to: string) => boolean }[] = [
  { rule: 'commands and live import no other room', forbids: (from) => from === 'commands' || from === 'live' },
  { rule: 'shared rooms import only shared rooms', forbids: (from, to) => SHARED.includes(from) && !SHARED.includes(to) },
  { rule: 'route rooms import only shared rooms, never another route room', forbids: (from, to) => ROUTES.includes(from) && !SHARED.includes(to) },
  { rule: 'only serve imports the app', forbids: (from, to) => to === 'app' && from !== 'serve' },
  { rule: 'only the command line imports serve', forbids: (from, to) => to === 'serve' && from !== 'cli' },
  { rule: 'only serve imports the command line', forbids: (from, to) => to === 'cli' && from !== 'serve' },
];

/** The room rules an import from `file` of `target` breaks (none within one room, or out of server/). */
function brokenRules(file: string, target: string): string[] {
  const from = roomOf(file);
  const to = roomOf(target);
  if (!from || !to || from === to) return [];
  return ROOM_RULES.filter(({ forbids }) => forbids(from, to)).map(({ rule }) => rule);
}

const STORES = ['events/store/sqlite', 'events/store/postgres'];
/** Rooms that keep state in either store or read it there on their own, each through the adapters of its storage folder. */
const ADAPTED = { auth: 'server/auth/storage', audit: 'server/audit/storage' };
/** Rooms that see only the ledger's interface, never a store of their own choosing. */
const STORE_BLIND = [...ROUTES.filter((room) => !Object.hasOwn(ADAPTED, room)), 'commands', 'http', 'live', 'app'];
/** A storage folder's adapter for each store, by file name. */
const ADAPTERS: Record<string, string> = { 'sqlite.ts': 'events/store/sqlite', 'postgres.ts': 'events/store/postgres' };

/** The storage folder of the room `file` is in, when that room keeps its store behind adapters. */
function adaptersOf(file: string): string | null {
  const room = roomOf(file) ?? '';
  return Object.hasOwn(ADAPTED, room) ? ADAPTED[room as keyof typeof ADAPTED] : null;
}

/** The store an adapter of `folder` is for, or null for a file that is no adapter. */
function adapterStore(folder: string, file: string): string | null {
  const name = file.slice(folder.length + 1);
  return dirname(file) === folder && Object.hasOwn(ADAPTERS, name) ? ADAPTERS[name]! : null;
}

/** The store rules an import from `file` of `target` breaks. */
function brokenStoreRules(file: string, target: string): string[] {
  const adapters = adaptersOf(file);
  if (adapters && adapterStore(adapters, target) && under(adapters)(file) && file !== target) {
    return [adapterStore(adapters, file) ? 'neither storage adapter imports the other' : 'the storage interface imports no adapter'];
  }
  const store = STORES.find((folder) => under(folder)(target));
  if (!store) return [];
  const broken: string[] = [];
  const from = STORES.find((folder) => under(folder)(file));
  if (from && from !== store) broken.push('neither store imports the other');
  if (file === 'events/store/served-ledger.ts' || file === 'events/store/append.ts') broken.push('the interface imports no store');
  if (STORE_BLIND.includes(roomOf(file) ?? '')) broken.push('routes, what they share and the app reach the ledger only through its interface');
  if (adapters) {
    if (!under(adapters)(file)) broken.push('a room reaches a store only through its storage adapters');
    else if (adapterStore(adapters, file) !== store) broken.push('each storage adapter imports its own store alone');
  }
  return broken;
}

/** Modules under server/ named for one store (`pg-heavy-reads.ts`): a twin of another module, where an adapter belongs. */
function storeTwins(files: string[]): string[] {
  return files.filter((file) => roomOf(file) && /^(pg|postgres|sqlite)-/.test(file.split('/').pop()!));
}

/** Where bin/compiled.js sets import.meta.url in a compiled module, as a path from the root. */
function compiledLocation(): string {
  const text = readFileSync(join(ROOT, 'bin', 'compiled.js'), 'utf8');
  const define = /'import\.meta\.url':.*?join\(ROOT, ([^)]*)\)/.exec(text);
  expect(define, 'bin/compiled.js defines import.meta.url as a path under ROOT').not.toBeNull();
  return [...define![1]!.matchAll(/'([^']+)'/g)].map((part) => part[1]!).join('/');
}

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
    const crossing = sources('views').flatMap((file) =>
      importsOf(file)
        .filter(under('server'))
        .map((target) => `${file} imports ${target}`),
    );
    expect(crossing).toEqual([]);
  });

  it('has no server module that views import from importing views in turn', () => {
    // Followed through everything such a module imports: a view reached by any path is a cycle.
    const cycles: string[] = [];
    const seen = new Set<string>();
    const queue = sources('views').flatMap((file) =>
      importsOf(file)
        .filter(under('server'))
        .map((target) => [target, `${file} → ${target}`] as const),
    );
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

  it('keeps every source under server/ in one of its rooms, and every room in use', () => {
    const files = sources('server');
    const outside = files.filter((file) => !Object.hasOwn(ROOMS, roomOf(file) ?? ''));
    expect(outside, `put these in a room: ${Object.keys(ROOMS).join(', ')}`).toEqual([]);
    const empty = Object.keys(ROOMS).filter((room) => !files.some(under(`server/${room}`)));
    expect(empty).toEqual([]);
  });

  it('has every import between rooms of server/ follow the room rules', () => {
    const broken = sources('server').flatMap((file) =>
      importsOf(file).flatMap((target) => brokenRules(file, target).map((rule) => `${file} imports ${target}: ${rule}`)),
    );
    expect(broken).toEqual([]);
  });

  it('catches an import that crosses each room rule', () => {
    // Each crossing breaks one rule and no other, so every rule is seen to hold on its own.
    const crossings: [string, string, string][] = [
      ['server/live/sse.ts', 'server/http/refusals.ts', 'commands and live import no other room'],
      ['server/commands/game-commands.ts', 'server/http/refusals.ts', 'commands and live import no other room'],
      ['server/auth/auth.ts', 'server/judge/judge-routes.tsx', 'shared rooms import only shared rooms'],
      ['server/http/run-command.ts', 'server/audience/live-pages.tsx', 'shared rooms import only shared rooms'],
      ['server/entry/entry-routes.tsx', 'server/director/create-choices.ts', 'route rooms import only shared rooms, never another route room'],
      ['server/audience/live-pages.tsx', 'server/judge/judge-console-model.ts', 'route rooms import only shared rooms, never another route room'],
      ['server/cli/main.ts', 'server/app/app.ts', 'only serve imports the app'],
      ['server/app/app.ts', 'server/serve/serve.ts', 'only the command line imports serve'],
      ['server/app/app.ts', 'server/cli/io.ts', 'only serve imports the command line'],
    ];
    for (const [file, target, rule] of crossings) expect(brokenRules(file, target), `${file} → ${target}`).toEqual([rule]);
    // What the rooms are for: routes on shared rooms, the app on routes, serve on the app and the command line.
    const allowed: [string, string][] = [
      ['server/entry/entry-routes.tsx', 'server/http/seating-input.ts'],
      ['server/http/run-command.ts', 'server/auth/sessions.ts'],
      ['server/app/live-channels.tsx', 'server/judge/judge-console-model.ts'],
      ['server/serve/serve.ts', 'server/app/app.ts'],
      ['server/serve/serve.ts', 'server/cli/io.ts'],
      ['server/cli/command-table.ts', 'server/serve/serve.ts'],
      ['server/cli/import.ts', 'server/commands/replay-check.ts'],
      ['server/entry/entry-routes.tsx', 'server/commands/replay-check.ts'],
    ];
    for (const [file, target] of allowed) expect(brokenRules(file, target), `${file} → ${target}`).toEqual([]);
  });

  it('keeps each store in its folder behind the one ledger interface', () => {
    const files = [...sources('server'), ...sources('events'), ...sources('bench'), ...sources('test')];
    const broken = files.flatMap((file) =>
      importsOf(file).flatMap((target) => brokenStoreRules(file, target).map((rule) => `${file} imports ${target}: ${rule}`)),
    );
    expect(broken).toEqual([]);
    expect(sources('events/store/sqlite').length).toBeGreaterThan(0);
    expect(sources('events/store/postgres').length).toBeGreaterThan(0);
    // Each rule, seen to catch the import it is about.
    expect(brokenStoreRules('events/store/postgres/event-store.ts', 'events/store/sqlite/event-store.ts')).toEqual(['neither store imports the other']);
    expect(brokenStoreRules('events/store/served-ledger.ts', 'events/store/sqlite/ledger.ts')).toEqual(['the interface imports no store']);
    const blind = 'routes, what they share and the app reach the ledger only through its interface';
    expect(brokenStoreRules('server/entry/entry-routes.tsx', 'events/store/postgres/served-ledger.ts')).toEqual([blind]);
    expect(brokenStoreRules('server/http/run-command.ts', 'events/store/sqlite/event-store.ts')).toEqual([blind]);
    expect(brokenStoreRules('server/app/app.ts', 'events/store/sqlite/served-ledger.ts')).toEqual([blind]);
    expect(brokenStoreRules('server/app/live-channels.tsx', 'events/store/sqlite/ledger.ts')).toEqual([blind]);
    expect(brokenStoreRules('server/entry/entry-routes.tsx', 'events/store/served-ledger.ts')).toEqual([]);
    expect(brokenStoreRules('server/app/app.ts', 'events/store/served-ledger.ts')).toEqual([]);
    expect(brokenStoreRules('server/serve/serve-backends.ts', 'events/store/postgres/served-ledger.ts')).toEqual([]);
    // Sign-in's storage: an adapter per store, each on its own store, and the rest of the room on neither.
    expect(sources('server/auth/storage')).toEqual(['server/auth/storage/auth-storage.ts', 'server/auth/storage/postgres.ts', 'server/auth/storage/sqlite.ts']);
    const adapted = 'a room reaches a store only through its storage adapters';
    expect(brokenStoreRules('server/auth/auth.ts', 'events/store/sqlite/database.ts')).toEqual([adapted]);
    expect(brokenStoreRules('server/auth/storage/sqlite.ts', 'events/store/postgres/event-store.ts')).toEqual([
      'each storage adapter imports its own store alone',
    ]);
    expect(brokenStoreRules('server/auth/storage/auth-storage.ts', 'events/store/sqlite/database.ts')).toEqual([
      'each storage adapter imports its own store alone',
    ]);
    expect(brokenStoreRules('server/auth/storage/sqlite.ts', 'events/store/sqlite/database.ts')).toEqual([]);
    expect(brokenStoreRules('server/auth/storage/postgres.ts', 'events/store/postgres/event-store.ts')).toEqual([]);
    expect(brokenStoreRules('server/auth/auth.ts', 'events/store/served-ledger.ts')).toEqual([]);
    // The auditors' heavy reads the same way: the gate, the worker and the export written once over the interface.
    expect(sources('server/audit/storage')).toEqual([
      'server/audit/storage/heavy-reads.ts',
      'server/audit/storage/postgres.ts',
      'server/audit/storage/sqlite.ts',
    ]);
    expect(brokenStoreRules('server/audit/heavy-reads.ts', 'events/store/sqlite/served-ledger.ts')).toEqual([adapted]);
    expect(brokenStoreRules('server/audit/ledger-reader-worker.ts', 'events/store/postgres/event-store.ts')).toEqual([adapted]);
    expect(brokenStoreRules('server/audit/audit-routes.tsx', 'events/store/sqlite/ledger.ts')).toEqual([adapted]);
    expect(brokenStoreRules('server/audit/storage/postgres.ts', 'events/store/sqlite/database.ts')).toEqual([
      'each storage adapter imports its own store alone',
    ]);
    expect(brokenStoreRules('server/audit/storage/heavy-reads.ts', 'events/store/postgres/served-ledger.ts')).toEqual([
      'each storage adapter imports its own store alone',
    ]);
    expect(brokenStoreRules('server/audit/storage/sqlite.ts', 'server/audit/storage/postgres.ts')).toEqual(['neither storage adapter imports the other']);
    expect(brokenStoreRules('server/auth/storage/postgres.ts', 'server/auth/storage/sqlite.ts')).toEqual(['neither storage adapter imports the other']);
    expect(brokenStoreRules('server/audit/storage/heavy-reads.ts', 'server/audit/storage/sqlite.ts')).toEqual(['the storage interface imports no adapter']);
    expect(brokenStoreRules('server/audit/storage/sqlite.ts', 'events/store/sqlite/event-store.ts')).toEqual([]);
    expect(brokenStoreRules('server/audit/storage/postgres.ts', 'events/store/postgres/served-ledger.ts')).toEqual([]);
    expect(brokenStoreRules('server/audit/storage/postgres.ts', 'server/audit/storage/heavy-reads.ts')).toEqual([]);
    expect(brokenStoreRules('server/audit/ledger-reader-worker.ts', 'server/audit/storage/postgres.ts')).toEqual([]);
    expect(brokenStoreRules('server/audit/heavy-reads.ts', 'events/store/served-ledger.ts')).toEqual([]);
  });

  it('keeps no module of a room in a twin for one store', () => {
    expect(storeTwins(sources('server')), 'put what differs by store in the room’s storage adapters').toEqual([]);
    // The pair the heavy reads once were, and what is no twin.
    expect(storeTwins(['server/audit/heavy-reads.ts', 'server/audit/pg-heavy-reads.ts', 'server/auth/sqlite-sessions.ts'])).toEqual([
      'server/audit/pg-heavy-reads.ts',
      'server/auth/sqlite-sessions.ts',
    ]);
    expect(storeTwins(['server/audit/storage/postgres.ts', 'test/pg-served-ledger.test.ts', 'bench/pg-append.ts'])).toEqual([]);
  });

  it('keeps every module that reads its own location as deep as compiled modules say they are', () => {
    // A compiled module is told it sits at one place (bin/compiled.js); a module that finds the
    // static files or bin/ from import.meta.url only finds them there if it sits as deep.
    const location = compiledLocation().split('/');
    expect(roomOf(location.join('/'))).not.toBeNull();
    // A package is resolved from node_modules at any depth, compiled or not: only file lookups count.
    const readers = ['server', 'views', 'events', 'engine']
      .flatMap(sources)
      .filter((file) => /\bimport\.meta\b/.test(readFileSync(join(ROOT, file), 'utf8').replaceAll('createRequire(import.meta.url)', '')));
    expect(readers).toContain('server/app/static-files.ts');
    const elsewhere = readers.filter((file) => file.split('/').length !== location.length || !file.startsWith(`${location[0]}/`));
    expect(elsewhere, `a compiled module sits at ${location.join('/')}`).toEqual([]);
  });

  it('reads every kind of import the checks rely on', () => {
    // The checks above are only as good as the import scan; a server module it cannot see would pass unnoticed.
    expect(importsOf('bin/spades.js')).toContain('server/cli/main.ts');
    // Loaded on demand, from a folder up and another room.
    expect(importsOf('server/cli/command-table.ts')).toContain('server/serve/serve.ts');
    expect(importsOf('server/app/app.ts')).toContain('server/audience/live-pages.tsx');
    // A type alone, a re-export, and an import spanning lines.
    expect(importsOf('server/http/run-command.ts')).toContain('server/auth/sessions.ts');
    expect(importsOf('server/auth/auth.ts')).toContain('server/auth/storage/postgres.ts');
    expect(importsOf('server/audit/ledger-reader-worker.ts')).toContain('server/audit/storage/postgres.ts');
    expect(importsOf('server/judge/judge-routes.tsx')).toContain('server/judge/judge-fields.ts');
    expect(importsOf('views/layout.tsx').every((path) => !path.startsWith('..'))).toBe(true);
  });
});

/** Every folder of the repository that holds code. */
const ALL_FOLDERS = ['server', 'views', 'events', 'engine', 'static', 'bin', 'test', 'bench', 'scripts'];

/**
 * The product modules that name a store's adapter today, each with why it cannot go through the
 * ledger's interface yet. Nothing may join this list: a new module reaches the ledger through
 * events/store/served-ledger.ts and events/store/append.ts.
 */
const STORE_NAMED: Record<string, string> = {
  'server/serve/serve-backends.ts': 'chooses the store the server runs on (a file, or DATABASE_URL) and opens it',
  'server/cli/ledger-target.ts': 'chooses the store a command line tool works on, a ledger file or a PostgreSQL address',
  'server/cli/import-ledger.ts': "imports a whole ledger into the store named, with each store's own import",
  'server/cli/rebuild.ts': 'rebuilds the read models of a ledger file, which only the SQLite store keeps beside its events',
  'server/cli/import.ts': 'records a game record into a ledger file, opened as the SQLite store',
  'server/cli/add-user.ts': 'adds an account to the ledger file, opened as the SQLite store',
};

describe('layering across every folder', () => {
  const graph = importGraph(ROOT, ALL_FOLDERS);

  it('has no module of server/api, server/commands, events or engine importing a view', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(viewImportsBelow(graph), 'move the rule into engine/ or events/, and let the view word it').toEqual([]);
  });

  it('has no product module outside events/store naming a store adapter but those listed with their reason', () => {
    expect(storeAdapterImports(graph, STORE_NAMED), 'reach the ledger through events/store/served-ledger.ts or events/store/append.ts').toEqual([]);
    // Every module listed still names a store: one that no longer does comes off the list.
    const listedNoLonger = Object.keys(STORE_NAMED).filter((file) => storeAdapterImports(new Map([[file, graph.get(file) ?? []]]), {}).length === 0);
    expect(listedNoLonger, 'take these off STORE_NAMED').toEqual([]);
  });

  it("has each store's folder hold the same files by role", () => {
    expect(storeRoleGaps(ROOT), 'give the store the file its twin has').toEqual([]);
  });

  it('has no runtime import cycle', () => {
    expect(runtimeCycles(graph), 'move what both modules need into a third that imports neither').toEqual([]);
  });
});

describe('the layering checks, on a small tree with a violation planted in each', () => {
  /** A throwaway tree of the given files (path → text), checked, then removed. */
  function withTree<T>(files: Record<string, string>, check: (root: string) => T): T {
    const root = mkdtempSync(join(tmpdir(), 'layout-'));
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      return check(root);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  const clean: Record<string, string> = {
    'engine/rules.ts': 'export const rule = 1;\n',
    'events/standings.ts': "import { rule } from '../engine/rules.ts';\nexport const order = rule;\n",
    'events/store/append.ts': 'export type Row = { n: number };\n',
    'events/store/sqlite/ledger.ts': "import type { Row } from '../append.ts';\nexport const open = (row: Row) => row;\n",
    'events/store/sqlite/ledger-tools.ts': "import { open } from './ledger.ts';\nexport const tools = open;\n",
    'events/store/postgres/ledger.ts': "import type { Row } from '../append.ts';\nexport const open = async (row: Row) => row;\n",
    'server/serve/backends.ts':
      "import { open } from '../../events/store/sqlite/ledger.ts';\nimport { open as openPg } from '../../events/store/postgres/ledger.ts';\nexport const both = [open, openPg];\n",
    'bench/ledger.ts': "import { open } from '../events/store/postgres/ledger.ts';\nexport const bench = open;\n",
    'views/leaderboard.tsx': "import { order } from '../events/standings.ts';\nexport const Leaderboard = () => order;\n",
    'server/api/resources.ts':
      "import { order } from '../../events/standings.ts';\nimport type { Row } from '../../events/store/append.ts';\nexport const list = (row: Row) => [order, row];\n",
    'server/auth/storage/sqlite.ts': "import { open } from '../../../events/store/sqlite/ledger.ts';\nexport const store = open;\n",
    'test/ledger.test.ts':
      "import { open } from '../events/store/sqlite/ledger.ts';\nimport { list } from '../server/api/resources.ts';\nexport const both = [open, list];\n",
  };
  const checks = (root: string) => {
    const graph = importGraph(root, ALL_FOLDERS);
    return {
      views: viewImportsBelow(graph),
      stores: storeAdapterImports(graph, { 'server/serve/backends.ts': 'chooses the store' }),
      cycles: runtimeCycles(graph),
    };
  };

  it('passes the tree as it is', () => {
    expect(withTree(clean, checks)).toEqual({ views: [], stores: [], cycles: [] });
  });

  it('fails on a view imported by the API, a command, a projection or the engine, even for a type', () => {
    for (const file of ['server/api/resources.ts', 'server/commands/start.ts', 'events/standings.ts', 'engine/rules.ts']) {
      const up = '../'.repeat(file.split('/').length - 1);
      const planted = { ...clean, [file]: `${clean[file] ?? ''}import type { Leaderboard } from '${up}views/leaderboard.tsx';\n` };
      expect(withTree(planted, checks).views, file).toEqual([`${file} imports views/leaderboard.tsx`]);
    }
    // A route's own room may render a view.
    const routes = { ...clean, 'server/audience/pages.tsx': "import { Leaderboard } from '../../views/leaderboard.tsx';\n" };
    expect(withTree(routes, checks).views).toEqual([]);
  });

  it('fails on a store adapter named outside events/store, by a type as much as a value', () => {
    const planted = {
      ...clean,
      'views/verify.tsx': "import type { Row } from '../events/store/sqlite/ledger.ts';\n",
      'events/record-import.ts': "import { open } from './store/sqlite/ledger.ts';\n",
      'events/ledger-file.ts': "import { open } from './store/postgres/ledger.ts';\n",
      'server/auth/storage/postgres.ts': "import { open } from '../../../events/store/sqlite/ledger.ts';\n",
      'server/cli/export.ts': "export const tools = async () => (await import('../../events/store/sqlite/ledger-tools.ts')).tools;\n",
    };
    expect(withTree(planted, checks).stores.sort()).toEqual([
      'events/ledger-file.ts imports events/store/postgres/ledger.ts',
      'events/record-import.ts imports events/store/sqlite/ledger.ts',
      'server/auth/storage/postgres.ts imports events/store/sqlite/ledger.ts',
      'server/cli/export.ts imports events/store/sqlite/ledger-tools.ts',
      'views/verify.tsx imports events/store/sqlite/ledger.ts',
    ]);
    // A module listed with its reason may, and so may the one that chooses the store, the tests and the benchmarks.
    const reasons = Object.fromEntries(
      [
        'views/verify.tsx',
        'events/record-import.ts',
        'events/ledger-file.ts',
        'server/auth/storage/postgres.ts',
        'server/cli/export.ts',
        'server/serve/backends.ts',
      ].map((file) => [file, 'a reason']),
    );
    expect(withTree(planted, (root) => storeAdapterImports(importGraph(root, ALL_FOLDERS), reasons))).toEqual([]);
    expect(withTree(clean, (root) => storeAdapterImports(importGraph(root, ALL_FOLDERS), {}))).toEqual([
      'server/serve/backends.ts imports events/store/sqlite/ledger.ts',
      'server/serve/backends.ts imports events/store/postgres/ledger.ts',
    ]);
  });

  it('fails on one store adapter importing the other, and on the interface importing either, listed or not', () => {
    const planted = {
      ...clean,
      'events/store/postgres/ledger-tools.ts':
        "import type { Row } from '../append.ts';\nimport { tools } from '../sqlite/ledger-tools.ts';\nexport const pgTools = (row: Row) => [tools, row];\n",
      'events/store/sqlite/served-ledger.ts': "export const served = async () => (await import('../postgres/ledger.ts')).open;\n",
      'events/store/served-ledger.ts':
        "import type { Row } from './append.ts';\nimport { open } from './sqlite/ledger.ts';\nexport const serve = (row: Row) => open(row);\n",
    };
    const expected = [
      'events/store/postgres/ledger-tools.ts imports events/store/sqlite/ledger-tools.ts: neither store imports the other',
      'events/store/served-ledger.ts imports events/store/sqlite/ledger.ts: the interface imports no store',
      'events/store/sqlite/served-ledger.ts imports events/store/postgres/ledger.ts: neither store imports the other',
    ];
    expect(withTree(planted, checks).stores.sort()).toEqual(expected);
    const listed = Object.fromEntries(Object.keys(planted).map((file) => [file, 'a reason']));
    expect(withTree(planted, (root) => storeAdapterImports(importGraph(root, ALL_FOLDERS), listed)).sort()).toEqual(expected);
  });

  it("fails on a store's folder without a file its twin holds by role", () => {
    const roles = Object.fromEntries(
      ['sqlite', 'postgres'].flatMap((store) =>
        ['event-store.ts', 'snapshots.ts', 'ledger-tools.ts', 'served-ledger.ts'].map((role) => [`events/store/${store}/${role}`, 'export const role = 1;\n']),
      ),
    );
    expect(withTree({ ...clean, ...roles }, storeRoleGaps)).toEqual([]);
    const { 'events/store/postgres/snapshots.ts': _gone, ...withoutSnapshots } = roles;
    expect(withTree({ ...clean, ...withoutSnapshots }, storeRoleGaps)).toEqual(['events/store/postgres has no snapshots.ts']);
    // A file by another name does not stand in for it.
    expect(withTree({ ...clean, ...withoutSnapshots, 'events/store/postgres/pg-snapshots.ts': 'export const role = 1;\n' }, storeRoleGaps)).toEqual([
      'events/store/postgres has no snapshots.ts',
    ]);
  });

  it('fails on a runtime cycle of two modules or more, and lets types and imports on demand go round', () => {
    const two = { ...clean, 'engine/rules.ts': "import { order } from '../events/standings.ts';\nexport const rule = 1;\n" };
    expect(withTree(two, checks).cycles).toEqual(['engine/rules.ts → events/standings.ts → engine/rules.ts']);
    const three = {
      ...clean,
      'server/commands/a.ts': "import { b } from './b.ts';\nexport const a = 1;\n",
      'server/commands/b.ts': "import {\n  c,\n} from './c.ts';\nexport const b = 2;\n",
      'server/commands/c.ts': "import { type A, a } from './a.ts';\nexport const c = 3;\n",
    };
    expect(withTree(three, checks).cycles).toEqual(['server/commands/a.ts → server/commands/b.ts → server/commands/c.ts → server/commands/a.ts']);
    const erased = { ...three, 'server/commands/c.ts': "import type { A } from './a.ts';\nexport const c = 3;\n" };
    expect(withTree(erased, checks).cycles).toEqual([]);
    const onDemand = { ...three, 'server/commands/c.ts': "export const c = async () => (await import('./a.ts')).a;\n" };
    expect(withTree(onDemand, checks).cycles).toEqual([]);
    const quoted = { ...three, 'server/commands/c.ts': "/**\n * import { a } from './a.ts';\n */\n// import { a } from './a.ts';\nexport const c = 3;\n" };
    expect(withTree(quoted, checks).cycles).toEqual([]);
    const itself = { ...clean, 'engine/rules.ts': "import { rule as again } from './rules.ts';\nexport const rule = again;\n" };
    expect(withTree(itself, checks).cycles).toEqual(['engine/rules.ts → engine/rules.ts']);
  });
});

/** What a suite calls to start something of its own: a server, a browser, a child process, a database or a proxy. */
const STARTS =
  /(?<![.\w])(serveInProcess|startServeProcess|launchChromium|eventDay|spawn|spawnSync|exec|execSync|execFile|execFileSync|fork|spadesProcess|startChild|killWriters|crashCycle|startPostgres|startNginx|ledgerBackends|authBackends|postgresBackend|postgresAuthBackend|createServer|serve)\s*\(|\.listen\s*\(/;

describe('the suites sharing one thread', () => {
  it('are suites that start no server, browser, process, database or proxy of their own', () => {
    const suites = new Set(sources('test'));
    const starting = SHARED_THREAD_SUITES.flatMap((name) => {
      const file = [`test/${name}.test.ts`, `test/${name}.test.tsx`].find((path) => suites.has(path));
      if (!file) return [`${name}: no such suite`];
      const found = STARTS.exec(readFileSync(join(ROOT, file), 'utf8'));
      return found ? [`${file} calls ${found[0]}`] : [];
    });
    expect(starting, 'a suite that starts something runs in a process of its own: take it off SHARED_THREAD_SUITES').toEqual([]);
  });

  it('catches a suite that starts a server or a child process', () => {
    expect(STARTS.test('server = await serveInProcess(ledger);')).toBe(true);
    expect(STARTS.test("const child = spawn(process.execPath, ['x']);")).toBe(true);
    expect(STARTS.test('browser = await launchChromium();')).toBe(true);
    expect(STARTS.test('const res = await app.request("/screen");')).toBe(false);
  });
});

describe("the test chromium's start", () => {
  it('keeps every feature playwright turns off when it turns more off, and names one it would turn back on', () => {
    const playwright = '--disable-features=PaintHolding,MediaRouter';
    expect(CHROMIUM_ARGS.filter((arg) => arg.startsWith('--disable-features='))).toHaveLength(1);
    expect(featuresLeftOn([playwright, '--headless', ...CHROMIUM_ARGS])).toEqual([]);
    expect(CHROMIUM_ARGS.some((arg) => arg.includes('WebUIOmniboxPopup'))).toBe(true);
    expect(featuresLeftOn([playwright, '--disable-features=PaintHolding,WebUIOmniboxPopup'])).toEqual(['MediaRouter']);
    expect(featuresLeftOn(['--headless', ...CHROMIUM_ARGS])).toEqual([]);
  });
});
