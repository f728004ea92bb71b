/**
 * Benchmark harness. A benchmark returns figures; `bench/run.ts` runs them all and writes
 * `bench/results.json` and `bench/RESULTS.md`. Speed is only ever compared as a ratio of
 * figures measured in the same run, never against a wall-clock threshold in a test.
 */

export interface Figure {
  /** What was measured, e.g. "hands scored". */
  name: string;
  /** Unit of median and p99, e.g. "hands/s", "ms", "KB". */
  unit: string;
  median: number;
  p99: number;
  /** How many samples (repeats) the median and p99 come from. */
  samples: number;
  /** The figure this one is compared by, measured in the same run, with the ratio (this / that). */
  comparedTo?: { name: string; ratio: number };
  /** The goal, as text, e.g. ">= 100000 hands/s". */
  goal?: string;
  /** Whether the goal was met (absent when there is no goal). */
  met?: boolean;
}

export interface Benchmark {
  /** Group heading in the results, e.g. "engine". */
  group: string;
  run(): Promise<Figure[]> | Figure[];
}

/** Sorted-sample percentile (p in 0…100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/**
 * Measures a rate: runs `batch` (which does `perBatch` units of work) `repeats` times after a
 * warm-up and reports units per second, median and p99 (p99 of a rate is the slow tail: the 1st
 * percentile of the per-repeat rates).
 */
export function measureRate(name: string, unit: string, perBatch: number, batch: () => void, repeats = 15): Figure {
  batch();
  const rates: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = process.hrtime.bigint();
    batch();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    rates.push(perBatch / seconds);
  }
  return rateFigure(name, unit, rates);
}

/** A figure from per-repeat rates: the median, and the slow tail (the 1st percentile) as p99. */
export function rateFigure(name: string, unit: string, rates: number[]): Figure {
  return { name, unit, median: percentile(rates, 50), p99: percentile(rates, 1), samples: rates.length };
}

/**
 * Measures a duration per call in milliseconds, median and p99, after `warmUp` calls (code a
 * server runs all day is measured once the engine has compiled it, not while it does).
 */
export function measureTime(name: string, fn: () => void, repeats = 200, warmUp = 1): Figure {
  for (let i = 0; i < warmUp; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { name, unit: 'ms', median: percentile(times, 50), p99: percentile(times, 99), samples: repeats };
}

/** Marks a figure against a goal: `atLeast` for rates, `atMost` for times and sizes. */
export function withGoal(figure: Figure, goal: { atLeast?: number; atMost?: number }): Figure {
  if (goal.atLeast !== undefined) {
    return { ...figure, goal: `>= ${goal.atLeast} ${figure.unit}`, met: figure.median >= goal.atLeast };
  }
  if (goal.atMost !== undefined) {
    return { ...figure, goal: `<= ${goal.atMost} ${figure.unit}`, met: figure.p99 <= goal.atMost };
  }
  return figure;
}

/** Adds the ratio of `figure` to `other` (both from the same run). */
export function comparedTo(figure: Figure, other: Figure): Figure {
  return { ...figure, comparedTo: { name: other.name, ratio: figure.median / other.median } };
}
