/**
 * `npm run bench`: runs every benchmark in turn, prints each figure as it lands, then writes
 * `bench/results.json` and `bench/RESULTS.md` with the machine they were measured on. Figures
 * from different machines are not comparable, which is why the machine travels with them.
 *
 * `npm run bench -- WORDS…` runs only the groups whose name contains one of the words, and
 * replaces just their rows in the results; each such group is marked with the date it ran.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, release, totalmem, type } from 'node:os';
import { fileURLToPath } from 'node:url';
import { engineBench } from './engine.ts';
import { renderBench } from './render.ts';
import { sseBench } from './sse.ts';
import { ledgerBench } from './ledger.ts';
import { pgAppendBench } from './pg-append.ts';
import { rebuildBench } from './rebuild.ts';
import { scoreBench } from './score.ts';
import { heavyReadsBench } from './heavy-reads.ts';
import { schemasBench } from './schemas.ts';
import { clusterBench } from './pg-cluster.ts';
import { exportsBench } from './exports.ts';
import { apiBench } from './api.ts';
import type { Benchmark, Figure } from './harness.ts';

/** Every benchmark, in the order run. Add a benchmark by importing it and listing it here. */
const BENCHMARKS: Benchmark[] = [
  engineBench,
  scoreBench,
  ledgerBench,
  pgAppendBench,
  schemasBench,
  rebuildBench,
  heavyReadsBench,
  exportsBench,
  apiBench,
  renderBench,
  sseBench,
  clusterBench,
];

export interface Machine {
  cpu: string;
  cores: number;
  memoryGB: number;
  os: string;
  node: string;
  date: string;
}

export interface GroupResult {
  group: string;
  seconds: number;
  figures: Figure[];
  /** When the group was run on its own, after the full run the machine's date is from. */
  date?: string;
}

function machine(): Machine {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()} ${arch()}`,
    node: process.version,
    date: new Date().toISOString(),
  };
}

/** Thousands grouped for rates; smaller numbers (times, ratios) keep enough decimals to read. */
function format(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 1 ? 2 : 4;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

function describeFigure(f: Figure): string {
  const parts = [`${f.name}: ${format(f.median)} ${f.unit} median, ${format(f.p99)} p99 (${f.samples} samples)`];
  if (f.comparedTo) parts.push(`${format(f.comparedTo.ratio)}× ${f.comparedTo.name}`);
  if (f.goal) parts.push(`goal ${f.goal}: ${f.met ? 'met' : 'NOT MET'}`);
  return parts.join('; ');
}

function markdown(m: Machine, groups: readonly GroupResult[]): string {
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench`; numbers are only comparable with others from the same machine.',
    '',
    `- CPU: ${m.cpu} (${m.cores} cores)`,
    `- Memory: ${m.memoryGB} GB`,
    `- OS: ${m.os}`,
    `- Node: ${m.node}`,
    `- Date: ${m.date}`,
    ...groups.filter((g) => g.date).map((g) => `- Group "${g.group}" run again on its own: ${g.date}`),
    '',
    '| group | figure | median | p99 | unit | samples | compared to | goal | met |',
    '|---|---|--:|--:|---|--:|---|---|---|',
  ];
  for (const g of groups) {
    for (const f of g.figures) {
      const compared = f.comparedTo ? `${format(f.comparedTo.ratio)}× ${f.comparedTo.name}` : '';
      const met = f.met === undefined ? '' : f.met ? 'yes' : '**no**';
      lines.push(`| ${g.group} | ${f.name} | ${format(f.median)} | ${format(f.p99)} | ${f.unit} | ${f.samples} | ${compared} | ${f.goal ?? ''} | ${met} |`);
    }
  }
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const m = machine();
  console.log(`benchmarks on ${m.cpu}, ${m.cores} cores, ${m.os}, Node ${m.node}`);
  const words = process.argv.slice(2).map((w) => w.toLowerCase());
  const chosen = words.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => words.some((w) => b.group.toLowerCase().includes(w)));
  if (chosen.length === 0)
    throw new Error(`no benchmark group's name contains ${words.join(' or ')}; the groups are: ${BENCHMARKS.map((b) => b.group).join(', ')}`);
  const groups: GroupResult[] = [];
  const started = process.hrtime.bigint();
  for (const bench of chosen) {
    console.log(`\n${bench.group}: running…`);
    const start = process.hrtime.bigint();
    const figures = await bench.run();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    for (const f of figures) console.log(`  ${describeFigure(f)}`);
    console.log(`  (${seconds.toFixed(1)} s)`);
    groups.push({ group: bench.group, seconds: Math.round(seconds * 10) / 10, figures, ...(words.length > 0 ? { date: new Date().toISOString() } : {}) });
  }

  const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
  let json = { machine: m, groups };
  if (words.length > 0 && existsSync(here('results.json'))) {
    // Only the groups run replace theirs; the rest, and the machine of the full run, stay.
    const earlier = JSON.parse(readFileSync(here('results.json'), 'utf8')) as { machine: Machine; groups: GroupResult[] };
    if (earlier.machine.cpu !== m.cpu || earlier.machine.cores !== m.cores) {
      console.warn(
        `the other groups were measured on ${earlier.machine.cpu} (${earlier.machine.cores} cores), not this machine: run them all again to compare`,
      );
    }
    const ran = new Map(groups.map((g) => [g.group, g]));
    const order = BENCHMARKS.map((b) => b.group);
    const merged = [...earlier.groups.filter((g) => !ran.has(g.group)), ...groups].sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
    json = { machine: earlier.machine, groups: merged };
  }
  writeFileSync(here('results.json'), JSON.stringify(json, null, 2) + '\n');
  // Notes written under the table (a "## " section, such as figures measured before and after a
  // change side by side) stay when the table is written again.
  const notes = existsSync(here('RESULTS.md')) ? (/\n## [\s\S]*$/.exec(readFileSync(here('RESULTS.md'), 'utf8'))?.[0] ?? '') : '';
  writeFileSync(here('RESULTS.md'), markdown(json.machine, json.groups) + notes);

  const goals = groups.flatMap((g) => g.figures).filter((f) => f.met !== undefined);
  const missed = goals.filter((f) => !f.met);
  const total = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`\n${goals.length - missed.length} of ${goals.length} goals met in ${total.toFixed(1)} s; wrote bench/results.json and bench/RESULTS.md`);
  for (const f of missed) console.log(`  missed: ${f.name} (${format(f.median)} ${f.unit}, goal ${f.goal})`);
}

await main();
