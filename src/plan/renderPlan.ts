/** The plan as one page of Markdown (the default output of `plan`), or as JSON (`--json`). */
import { bullets, code, inline, jsonBlock, table } from './markdown.js';
import { prettyJson } from './prettyJson.js';
import type { Finding, Plan, RoundRow } from './types.js';

function schemaCell(schema: RoundRow['responseSchema']): string {
  return typeof schema === 'string' ? schema : code(JSON.stringify(schema));
}

function budgetCell(budget: RoundRow['budget']): string {
  const prompt = budget.maxPromptBytes === undefined ? '' : `, prompt <= ${budget.maxPromptBytes} B`;
  return `${budget.maxTokens} tokens, answer <= ${budget.maxResponseBytes} B${prompt}`;
}

function observedCell(row: RoundRow): string {
  if (row.observed === undefined) return '';
  const parts = [
    `includeContext ${row.observed.includeContext === undefined ? 'omitted' : code(row.observed.includeContext)}`,
    row.observed.systemPrompt ? 'systemPrompt' : 'no systemPrompt',
    ...(row.observed.tools === true ? ['tools offered'] : []),
    ...(row.observed.modelPreferences === undefined ? [] : [code(JSON.stringify(row.observed.modelPreferences))]),
  ];
  return parts.join('; ');
}

function roundTable(rounds: Plan['rounds']): string {
  if (rounds.rows.length === 0) return rounds.final;
  const observed = rounds.source === 'audit';
  const header = ['round', 'input key', 'embedded method', 'response schema', 'validation', 'budget'];
  const rows = rounds.rows.map((row) => [
    String(row.round),
    code(row.inputKey),
    `${row.method.includes('/') ? code(row.method) : row.method}${row.toolLoop === undefined ? '' : ' with tools (a loop)'}`,
    schemaCell(row.responseSchema),
    row.validation,
    budgetCell(row.budget),
    ...(observed ? [observedCell(row)] : []),
  ]);
  const lead = observed ? 'Filled from what `audit` observed on the live tool.\n\n' : '';
  const notes = rounds.notes.length > 0 ? `\n\n${bullets(rounds.notes)}` : '';
  return `${lead}${table(observed ? [...header, 'observed'] : header, rows)}\n\n${rounds.final}${notes}`;
}

function stateSection(state: Plan['state']): string {
  if (!state.applies) return 'No requestState: nothing crosses the client between requests.';
  const carries = state.carries.length > 0 ? `\n\nCarries: ${state.carries.map(inline).join('; ')}.` : '';
  return (
    `**${state.protection}**, bound to: ${state.binding.join('; ')}. Expiry: ${state.ttlSeconds} s.${carries}\n\n` +
    bullets(state.notes)
  );
}

function removalSection(removal: Plan['removal']): string {
  const condition = inline(removal.condition);
  if (!removal.applies) return `Nothing to remove: ${condition}.`;
  if (removal.date === null) return `Remove the sampling path now: ${condition}.`;
  return (
    `Remove the sampling path when ${condition}. Date: on or after ${inline(removal.date)} ` +
    '(sampling is deprecated and removable on or after 2027-07-28).'
  );
}

function findingList(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'None.';
  return bullets(findings.map((finding) => `${code(finding.id)} at ${code(finding.field)}: ${finding.message}`));
}

export function renderPlanMarkdown(plan: Plan): string {
  const sections = [
    `# Plan for ${code(plan.tool)}`,
    `## 1. Architecture decision\n\n**${plan.decision.architecture}**\n\n${bullets(plan.decision.why)}`,
    '## 2. Discovery contract\n\n`server/discover`, cacheable:\n\n' +
      `${jsonBlock(plan.discovery.discover)}\n\n` +
      '`tools/list`, cacheable, deterministic order, the same for every caller:\n\n' +
      jsonBlock(plan.discovery.toolsList),
    '## 3. Request envelope and errors\n\n' +
      'No initialize and no sessions: every request carries `_meta` with ' +
      '`io.modelcontextprotocol/protocolVersion` (`"2026-07-28"`), `io.modelcontextprotocol/clientCapabilities` ' +
      '(`{}` for none) and `io.modelcontextprotocol/clientInfo` (display only); every result carries `resultType` ' +
      'and `io.modelcontextprotocol/serverInfo`.\n\n' +
      table(
        ['case', 'code', 'data', 'HTTP'],
        plan.envelope.errors.map((error) => [
          error.case,
          String(error.code),
          error.data.startsWith('{') ? code(error.data) : error.data,
          String(error.http),
        ]),
      ) +
      `\n\n${plan.envelope.notifications}`,
    `## 4. Round table\n\n${roundTable(plan.rounds)}`,
    `## 5. Retry contract\n\n${bullets(plan.retry.rules)}`,
    `## 6. State protection\n\n${stateSection(plan.state)}`,
    `## 7. Safety policy\n\n${table(
      ['rule', 'policy'],
      plan.safety.map((entry) => [entry.rule, entry.policy]),
    )}`,
    `## 8. Removal plan\n\n${removalSection(plan.removal)}`,
    `## Findings\n\n### Hard rejects\n\n${findingList(plan.findings.hardRejects)}\n\n` +
      `### Refusals\n\n${findingList(plan.findings.refusals)}`,
    `## Verdict\n\n**${plan.verdict}**`,
  ];
  return `${sections.join('\n\n')}\n`;
}

export function renderPlanJson(plan: Plan): string {
  return prettyJson(plan);
}
