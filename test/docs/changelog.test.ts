/**
 * CHANGELOG.md keeps the Keep a Changelog form (https://keepachangelog.com/en/1.1.0/): `## [Unreleased]` first, then
 * released versions, each with `### Added/Changed/Deprecated/Removed/Fixed/Security` sections of one-line entries
 * about what a user sees. Figures belong to the generated pages, so an entry carries no measurement.
 */
import { describe, expect, it } from 'vitest';

import { readDoc } from './markdown.js';

const SECTIONS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];
/** A number with a unit of time, size, share or ratio, or a percentile: a measurement. */
const MEASUREMENT =
  /\b\d+(?:[.,]\d+)?\s?(?:ms|s|sec|seconds?|minutes?|min|h|hours?|[KMG]i?B|bytes?|%|x|times)(?![\w-])|\bp(?:50|90|95|99|999)\b|\d%/i;

const text = readDoc('CHANGELOG.md');
const lines = text.split('\n');

/** The releases: heading line and the lines under it up to the next release. */
function releases(): Array<{ heading: string; body: string[] }> {
  const found: Array<{ heading: string; body: string[] }> = [];
  for (const line of lines) {
    if (line.startsWith('## ')) found.push({ heading: line, body: [] });
    else found.at(-1)?.body.push(line);
  }
  return found;
}

describe('CHANGELOG.md', () => {
  it('opens with its title and `## [Unreleased]`, then versions with their dates', () => {
    expect(lines[0]).toBe('# Changelog');
    const headings = releases().map((release) => release.heading);
    expect(headings[0]).toBe('## [Unreleased]');
    for (const heading of headings.slice(1))
      expect(heading).toMatch(/^## \[\d+\.\d+\.\d+(?:-[\w.]+)?\] - \d{4}-\d{2}-\d{2}$/);
  });

  it('groups entries under the six kinds of change, each kind once per release', () => {
    for (const release of releases()) {
      const kinds = release.body.filter((line) => line.startsWith('#')).map((line) => line.replace(/^###\s+/, ''));
      expect(
        kinds.every((kind) => SECTIONS.includes(kind)),
        `${release.heading}: ${kinds.join(', ')}`,
      ).toBe(true);
      expect(new Set(kinds).size, release.heading).toBe(kinds.length);
      expect(kinds.length, `${release.heading} has no section`).toBeGreaterThan(0);
    }
  });

  it('writes one line per entry', () => {
    for (const release of releases()) {
      const stray = release.body.filter((line) => line.trim() !== '' && !/^(### |- \S)/.test(line));
      expect(stray, `${release.heading}: lines that are neither a section nor a one-line entry`).toEqual([]);
    }
  });

  it('carries no measurements', () => {
    const measured = lines.filter((line) => line.startsWith('- ') && MEASUREMENT.test(line));
    expect(measured).toEqual([]);
  });

  it('recognizes a measurement when it sees one', () => {
    for (const sample of ['p99 of 12 ms', '1.5x a warm one', '30 s idle', '140 MB', 'spills over 4 KiB', 'by 40%']) {
      expect(MEASUREMENT.test(sample), sample).toBe(true);
    }
    for (const sample of ['revision 2026-07-28', 'SEP-1577', 'exit 130', 'openai 6.49.0', 'refused with -32602']) {
      expect(MEASUREMENT.test(sample), sample).toBe(false);
    }
  });
});
