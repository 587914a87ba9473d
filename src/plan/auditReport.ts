/** Reading an `audit --json` report back for `plan --from-audit`: validated, errors name the field. */
import { z } from 'zod';

import { AUDIT_FORMAT, type AuditReport } from '../audit/types.js';
import { ModelInputError } from '../errors.js';
import { nestsDeeperThan, parseJsonText } from './jsonText.js';
import { readInputFile } from './readInput.js';
import { fieldPath } from './schemaIssues.js';

export const MAX_AUDIT_REPORT_BYTES = 1024 * 1024;
/** Objects and arrays nested deeper than this are refused (an inputSchema is compiled and printed). */
export const MAX_AUDIT_REPORT_DEPTH = 64;

const observedRequest = z.object({
  round: z.number().int().min(0),
  inputKey: z.string().min(1),
  method: z.string(),
  maxTokens: z.number().int().optional(),
  includeContext: z.string().optional(),
  modelPreferences: z.record(z.string(), z.unknown()).optional(),
  systemPrompt: z.boolean(),
  messages: z.number().int(),
  promptBytes: z.number().int(),
  tools: z.boolean(),
});

const auditReport = z.object({
  format: z.literal(AUDIT_FORMAT),
  protocolVersion: z.string(),
  target: z.union([
    z.object({ transport: z.literal('stdio'), command: z.string() }),
    z.object({ transport: z.literal('http'), url: z.string() }),
  ]),
  summary: z.object({ pass: z.number(), fail: z.number(), notApplicable: z.number() }),
  rules: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      spec: z.string(),
      status: z.enum(['pass', 'fail', 'not_applicable']),
      detail: z.string(),
    }),
  ),
  observed: z.object({
    server: z.object({ name: z.string(), version: z.string() }).optional(),
    tools: z.array(z.string()),
    tool: z
      .object({
        name: z.string().min(1),
        arguments: z.record(z.string(), z.unknown()),
        description: z.string().optional(),
        inputSchema: z.unknown().optional(),
      })
      .optional(),
    declaredCapabilities: z.record(z.string(), z.unknown()).optional(),
    rounds: z.array(observedRequest),
    requestState: z.object({ bytes: z.number().int(), readable: z.boolean() }).optional(),
    completed: z.boolean(),
  }),
  diagnostics: z.string().optional(),
});

function fieldOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`),
    '',
  );
}

export function parseAuditReport(text: string, source: string): AuditReport {
  const json = parseJsonText(text);
  if (!json.ok) {
    throw new ModelInputError(
      'audit_report_invalid',
      'syntax' in json
        ? `${source} is not JSON (${json.syntax})`
        : `${source} is not an audit --json report:\n${json.duplicates
            .map(({ pointer, key }) => `  ${fieldPath(pointer, key)}: is a duplicate key`)
            .join('\n')}`,
    );
  }
  if (nestsDeeperThan(json.value, MAX_AUDIT_REPORT_DEPTH)) {
    throw new ModelInputError('audit_report_invalid', `${source} nests deeper than ${MAX_AUDIT_REPORT_DEPTH} levels`);
  }
  const parsed = auditReport.safeParse(json.value);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${fieldOf(issue.path) || '(report)'}: ${issue.message}`);
    throw new ModelInputError('audit_report_invalid', `${source} is not an audit --json report:\n${lines.join('\n')}`);
  }
  return parsed.data as AuditReport;
}

/** Reads a report file: a regular file of at most MAX_AUDIT_REPORT_BYTES of UTF-8, checked before parsing. */
export async function loadAuditReport(path: string): Promise<AuditReport> {
  const input = await readInputFile(path, MAX_AUDIT_REPORT_BYTES);
  if (!input.ok) {
    throw new ModelInputError('audit_report_invalid', `audit report ${path} ${input.problem}`, { cause: input.cause });
  }
  return parseAuditReport(input.text, path);
}
