/**
 * review_changes' deterministic findings, made on every route whatever the model says: a secret added (reported,
 * and redacted wherever the diff is shown), a secret-bearing file changed (its diff withheld), a large binary
 * added, a lock file changed without its manifest, conflict markers, a debug statement left in.
 */
import type { DiffFile } from '../../entries/tool.js';

export type Severity = 'high' | 'medium' | 'low';

export interface Finding {
  severity: Severity;
  path: string;
  /** The line in the new file, where there is one. */
  line?: number;
  message: string;
  /** `check`: the deterministic checks here; `model`: the reviewing model. */
  source: 'check' | 'model';
}

/** A binary file added at this size or more is worth a word. */
export const LARGE_BINARY_BYTES = 1024 * 1024;

/** Lock files and the manifest each goes with (same directory). */
export const LOCKS: Record<string, readonly string[]> = {
  'package-lock.json': ['package.json'],
  'npm-shrinkwrap.json': ['package.json'],
  'yarn.lock': ['package.json'],
  'pnpm-lock.yaml': ['package.json'],
  'bun.lockb': ['package.json'],
  'Cargo.lock': ['Cargo.toml'],
  'poetry.lock': ['pyproject.toml'],
  'uv.lock': ['pyproject.toml'],
  'Pipfile.lock': ['Pipfile'],
  'Gemfile.lock': ['Gemfile'],
  'composer.lock': ['composer.json'],
  'go.sum': ['go.mod'],
  'mix.lock': ['mix.exs'],
};

const CONFLICT = /^(<{7}|={7}|>{7})( |$)/;

/** Debug statements, by what they look like in any language. */
const DEBUG: ReadonlyArray<[RegExp, string]> = [
  [/\bconsole\.(log|debug|trace)\s*\(/, 'console.log'],
  [/^\s*debugger\s*;?\s*$/, 'debugger'],
  [/\b(pdb|ipdb)\.set_trace\s*\(|^\s*breakpoint\s*\(\s*\)/, 'a Python breakpoint'],
  [/\bbinding\.pry\b/, 'binding.pry'],
  [/\bdbg!\s*\(/, 'dbg!'],
  [/\bvar_dump\s*\(/, 'var_dump'],
];

export const isTestPath = (path: string): boolean =>
  /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[a-z]+$/.test(path);
const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const dirName = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '');

/** The added lines of a patch with their numbers in the new file. */
export function addedLines(patch: string): Array<{ line: number; text: string }> {
  const lines: Array<{ line: number; text: string }> = [];
  let next = 0;
  let inHunk = false;
  for (const line of patch.split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk !== null) {
      next = Number(hunk[1]);
      inHunk = true;
    } else if (inHunk && line.startsWith('+')) {
      lines.push({ line: next++, text: line.slice(1) });
    } else if (inHunk && line.startsWith(' ')) {
      next++;
    }
  }
  return lines;
}

function lineChecks(file: DiffFile): Finding[] {
  const findings: Finding[] = [];
  const debugAllowed = isTestPath(file.path);
  let debugs = 0;
  for (const { line, text } of addedLines(file.patch)) {
    if (CONFLICT.test(text)) {
      findings.push({
        severity: 'high',
        path: file.path,
        line,
        message: 'a merge conflict marker is left in',
        source: 'check',
      });
      continue;
    }
    if (debugAllowed || debugs >= 5) continue;
    const debug = DEBUG.find(([pattern]) => pattern.test(text));
    if (debug !== undefined) {
      debugs++;
      findings.push({
        severity: 'low',
        path: file.path,
        line,
        message: `a debug statement (${debug[1]}) is left in`,
        source: 'check',
      });
    }
  }
  return findings;
}

export function deterministicFindings(files: readonly DiffFile[]): Finding[] {
  const findings: Finding[] = [];
  const changed = new Set(files.map((file) => file.path));
  for (const file of files) {
    for (const secret of file.secrets) {
      findings.push({
        severity: 'high',
        path: file.path,
        line: secret.line,
        message: `a secret (${secret.kind}) is added; it is redacted here: remove it from the change and rotate it`,
        source: 'check',
      });
    }
    if (file.withheld && file.status !== 'deleted') {
      findings.push({
        severity: 'high',
        path: file.path,
        message: 'a secret-bearing file is changed; its diff is not shown (does it belong in the repository?)',
        source: 'check',
      });
    }
    if (file.binary && file.status === 'added' && (file.size ?? 0) >= LARGE_BINARY_BYTES) {
      const mib = ((file.size ?? 0) / (1024 * 1024)).toFixed(1);
      findings.push({
        severity: 'medium',
        path: file.path,
        message: `a large binary file (${mib} MiB) is added`,
        source: 'check',
      });
    }
    const manifests = LOCKS[baseName(file.path)];
    if (manifests !== undefined && file.status !== 'deleted') {
      const dir = dirName(file.path);
      if (!manifests.some((manifest) => changed.has(dir + manifest))) {
        findings.push({
          severity: 'low',
          path: file.path,
          message: `the lock file changes without its manifest (${dir}${manifests.join(' or ')})`,
          source: 'check',
        });
      }
    }
    findings.push(...lineChecks(file));
  }
  return findings;
}
