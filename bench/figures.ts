/**
 * The figures of one `npm run bench` or `npm run stress` run, as the JSON in `bench/results/` holds them: each figure
 * a value beside a baseline measured in the same run, the command that reproduces it and one sentence on what it
 * means. The bench parts call {@link record} where they print their tables; the runner writes what was recorded.
 */
import { cpus, platform, release } from 'node:os';

export interface Figure {
  /** The bench part that measured it (`npm run bench -- --only PART`). */
  part: string;
  /** What was measured, as the page shows it. */
  name: string;
  /** What it was measured against. */
  against: string;
  /** What was measured, in `unit`. */
  value: number;
  /** The same measure of the baseline, in the same run. */
  baseline: number;
  /** value / baseline. */
  ratio: number;
  unit: string;
  /** The command that reproduces it. */
  command: string;
  /** One sentence: what the ratio tells a user. */
  meaning: string;
}

export interface Machine {
  node: string;
  cpus: number;
  cpuModel: string;
  os: string;
}

export interface BenchResults {
  kind: 'bench';
  /** ISO date (UTC) of the run. */
  date: string;
  machine: Machine;
  /** The bench parts that ran (`npm run bench -- --only …`). */
  parts: string[];
  command: string;
  figures: Figure[];
}

export function machine(): Machine {
  const list = cpus();
  return {
    node: process.version,
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    os: `${platform()} ${release()}`,
  };
}

const recorded: Figure[] = [];

/** Rounds a figure to what its precision carries (4 significant digits), so the JSON stays small and readable. */
const round = (value: number): number => (Number.isFinite(value) ? Number(value.toPrecision(4)) : value);

export function record(figure: Omit<Figure, 'ratio'>): void {
  const { part, name, against, value, baseline, unit, command, meaning } = figure;
  const ratio = round(value / baseline);
  recorded.push({ part, name, against, value: round(value), baseline: round(baseline), ratio, unit, command, meaning });
}

export function recordedFigures(): Figure[] {
  return [...recorded];
}

/** The command that reproduces a part's figures. */
export const benchCommand = (part: string): string => `npm run bench -- --only ${part}`;

/** Where the results live, relative to the project root. */
export const RESULTS_DIR = 'bench/results';
export const LATEST = `${RESULTS_DIR}/latest.json`;
export const STRESS_LATEST = `${RESULTS_DIR}/stress-latest.json`;

/** `2026-12-02T11:05:09.123Z` → `2026-12-02T11-05Z`: the file name a recorded run is kept under. */
export const runFileName = (prefix: string, date: string): string =>
  `${prefix}${date.slice(0, 16).replace(':', '-')}Z.json`;
