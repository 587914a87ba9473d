/**
 * The generated pages are exactly the rendering of the JSON they name: docs/performance.md whole, from a bench
 * run's results, and the stress section of docs/reliability.md, from a stress run's. The renderer runs in-process;
 * no benchmark runs here. Also: the results stay small and carry what the page needs.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import type { BenchResults } from '../../bench/figures.js';
import {
  namedSource,
  PERFORMANCE_PAGE,
  prettierMarkdown,
  RELIABILITY_PAGE,
  renderedPerformance,
  renderedReliability,
  renderPerformance,
  renderStress,
  spliceStress,
  type StressResults,
} from '../../bench/render.js';

const ROOT = path.resolve('.');
const read = (file: string): Promise<string> => readFile(path.join(ROOT, file), 'utf8');

describe('docs/performance.md', () => {
  it('is the rendering of the JSON it names', async () => {
    const page = await read(PERFORMANCE_PAGE);
    const source = namedSource(page);
    expect(source).toMatch(/^bench\/results\/.+\.json$/);
    expect(page).toBe(await renderedPerformance(ROOT, source));
  });

  it('shows every figure of that JSON as a ratio, with its command and meaning', async () => {
    const page = await read(PERFORMANCE_PAGE);
    const results = JSON.parse(await read(namedSource(page))) as BenchResults;
    expect(results.machine).toMatchObject({ node: expect.stringMatching(/^v\d+/), cpus: expect.any(Number) });
    for (const figure of results.figures) {
      // The ratio is of the unrounded medians; the value and baseline are kept to 4 significant digits.
      expect(Math.abs(figure.ratio - figure.value / figure.baseline) / figure.ratio).toBeLessThan(0.01);
      expect(page).toContain(`**${figure.name}**: **${figure.ratio.toFixed(2)}x** against ${figure.against}`);
      expect(page).toContain(figure.command);
      expect(page).toContain(figure.meaning);
    }
  });

  it('covers what a user asks: start-up, rounds, request state, scale, redaction, tasks, the kit', async () => {
    const results = JSON.parse(await read(namedSource(await read(PERFORMANCE_PAGE)))) as BenchResults;
    const parts = new Set(results.figures.map((figure) => figure.part));
    for (const part of ['startup', 'rounds', 'codec', 'scale', 'repo', 'secrets', 'tasks', 'kit'])
      expect(parts).toContain(part);
  });

  it('changes when a figure changes (the comparison above is not vacuous)', async () => {
    const page = await read(PERFORMANCE_PAGE);
    const source = namedSource(page);
    const results = JSON.parse(await read(source)) as BenchResults;
    const [first, ...rest] = results.figures;
    const changed = { ...results, figures: [{ ...first!, ratio: first!.ratio + 1 }, ...rest] };
    expect(await prettierMarkdown(renderPerformance(changed, source), path.join(ROOT, PERFORMANCE_PAGE))).not.toBe(
      page,
    );
  });
});

describe('docs/reliability.md', () => {
  it('its stress section is the rendering of the JSON it names', async () => {
    const { current, rendered } = await renderedReliability(ROOT);
    expect(namedSource(current)).toBe('bench/results/stress-latest.json');
    expect(current).toBe(rendered);
  });

  it('a changed row changes the section', async () => {
    const current = await read(RELIABILITY_PAGE);
    const results = JSON.parse(await read('bench/results/stress-latest.json')) as StressResults;
    expect(results.rows.length).toBeGreaterThan(0);
    const changed = { ...results, rows: results.rows.map((row) => ({ ...row, errors: `${row.errors} (changed)` })) };
    const spliced = spliceStress(current, renderStress(changed, 'bench/results/stress-latest.json'));
    expect(await prettierMarkdown(spliced, path.join(ROOT, RELIABILITY_PAGE))).not.toBe(current);
  });
});

describe('bench/results', () => {
  it('holds small JSON only', async () => {
    const dir = path.join(ROOT, 'bench/results');
    const files = await readdir(dir);
    expect(files).toContain('latest.json');
    expect(files).toContain('stress-latest.json');
    for (const file of files) {
      expect(file).toMatch(/\.json$/);
      expect((await stat(path.join(dir, file))).size).toBeLessThan(16 * 1024);
      const parsed = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as { kind?: string; machine?: object };
      expect(['bench', 'stress']).toContain(parsed.kind);
      expect(parsed.machine).toBeDefined();
    }
  });

  it('keeps the pages within their budgets', async () => {
    expect((await stat(path.join(ROOT, PERFORMANCE_PAGE))).size).toBeLessThanOrEqual(8 * 1024);
    expect((await stat(path.join(ROOT, RELIABILITY_PAGE))).size).toBeLessThanOrEqual(10 * 1024);
  });
});
