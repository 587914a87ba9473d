/** The migrate report as text (after the diff) and as JSON (`--json`). */
import type { MigrateReport } from './types.js';

const WIDTH = 'unsupported'.length;

export function renderReportText(report: MigrateReport): string {
  const count = (status: string): number => report.callSites.filter((site) => site.status === status).length;
  const files = new Set(report.callSites.map((site) => site.location.file)).size;
  const lines = [
    `migrate: ${report.callSites.length} sampling call site${report.callSites.length === 1 ? '' : 's'} in ${files} file${
      files === 1 ? '' : 's'
    }: ${count('migrated')} migrated, ${count('flagged')} flagged, ${count('unsupported')} unsupported`,
  ];
  for (const site of report.callSites) {
    const where = `${site.location.file}:${site.location.line}:${site.location.column}`;
    const what = [
      site.tool === undefined ? undefined : `tool ${site.tool}`,
      site.step === undefined ? undefined : `step ${site.step}`,
    ]
      .filter((part) => part !== undefined)
      .join(', ');
    lines.push(`  ${site.status.padEnd(WIDTH)}  ${where}  ${site.kind}${what === '' ? '' : ` (${what})`}`);
    lines.push(`  ${' '.repeat(WIDTH)}  ${site.reason}`);
  }
  if (report.problems.length > 0) {
    lines.push('not analysed:');
    for (const problem of report.problems)
      lines.push(`  ${problem.file}:${problem.line}:${problem.column}  ${problem.reason}`);
  }
  if (report.notes.length > 0) {
    lines.push('notes:');
    for (const note of report.notes) lines.push(`  ${note}`);
  }
  if (report.check !== undefined) {
    const { check } = report;
    lines.push(
      check.ok
        ? `check: the result type-checks (no new error${check.preexisting > 0 ? `; ${check.preexisting} already there` : ''})`
        : `check: the rewrite adds ${check.errors.length} type error${check.errors.length === 1 ? '' : 's'}${
            check.preexisting > 0 ? ` (${check.preexisting} already there)` : ''
          }:`,
    );
    for (const error of check.errors) lines.push(`  ${error}`);
  }
  if (report.changedFiles.length === 0) lines.push('No file changes.');
  else if (report.written) lines.push(`Wrote ${report.changedFiles.join(', ')}.`);
  else lines.push('Nothing written: run with --write to apply (in a clean git work tree, or with --force).');
  return `${lines.join('\n')}\n`;
}

export function renderReportJson(report: MigrateReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
