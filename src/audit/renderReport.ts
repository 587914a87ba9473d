/** The audit report for people: one line per rule, failures first in attention, then a summary. */
import type { AuditReport, RuleStatus } from './types.js';

const LABEL: Record<RuleStatus, string> = { pass: 'pass', fail: 'FAIL', not_applicable: 'n/a ' };

export function renderAuditText(report: AuditReport): string {
  const target = report.target.transport === 'stdio' ? `stdio: ${report.target.command}` : report.target.url;
  const server =
    report.observed.server === undefined ? '' : ` (${report.observed.server.name} ${report.observed.server.version})`;
  const width = Math.max(...report.rules.map((rule) => rule.id.length));
  const era = report.rules.find((rule) => rule.id === 'protocol.revision');
  const negotiated =
    report.negotiated === null || report.negotiated === undefined
      ? `negotiated era: none (${era?.detail ?? 'no answer'})`
      : report.negotiated === report.protocolVersion
        ? `negotiated era: ${report.negotiated}`
        : `negotiated era: ${report.negotiated} — ${era?.detail ?? ''}`;
  const lines = [`audit of ${target}${server}, protocol ${report.protocolVersion}`, negotiated, ''];
  for (const rule of report.rules) {
    lines.push(`${LABEL[rule.status]}  ${rule.id.padEnd(width)}  ${rule.detail}`);
    if (rule.status === 'fail') lines.push(`${' '.repeat(width + 8)}${rule.title} — ${rule.spec}`);
  }
  const { pass, fail, notApplicable } = report.summary;
  lines.push('', `${pass} pass, ${fail} fail, ${notApplicable} not applicable`);
  if (report.diagnostics !== undefined) lines.push(report.diagnostics);
  return `${lines.join('\n')}\n`;
}
