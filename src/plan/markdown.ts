/** Small Markdown builders whose output Prettier leaves unchanged (aligned tables, fenced JSON). */
import { prettyJson } from './prettyJson.js';

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** Display width as Prettier measures it, close enough: wide East Asian characters count twice. */
function width(text: string): number {
  let total = 0;
  for (const char of text) total += WIDE.test(char) ? 2 : 1;
  return total;
}

/**
 * One line of text: every line break (with the blanks around it) becomes one space, so text from a
 * workflow or a report can never start a heading, a list or a second verdict.
 */
export function inline(text: string): string {
  return text.replace(/\s*[\r\n\u2028\u2029]\s*/g, ' ').trim();
}

/** One table cell: one line, pipes escaped. */
export function cell(text: string): string {
  return inline(text).replaceAll('|', '\\|');
}

export function code(raw: string): string {
  const text = inline(raw);
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const all = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, column) => Math.max(3, ...all.map((row) => width(row[column] ?? ''))));
  const line = (row: readonly string[]) =>
    `| ${row.map((value, column) => value + ' '.repeat((widths[column] ?? 0) - width(value))).join(' | ')} |`;
  const [head, ...body] = all;
  return [line(head ?? []), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...body.map(line)].join('\n');
}

export function jsonBlock(value: unknown): string {
  return `\`\`\`json\n${prettyJson(value)}\`\`\``;
}

export function bullets(items: readonly string[]): string {
  return items.map((item) => `- ${inline(item)}`).join('\n');
}
