/**
 * docs/cli.md, rendered from the flag table `--help` prints (usage.ts). `npm run docs:cli` writes it; the CLI
 * reference test fails when the committed page is not this rendering.
 */
import {
  flagSentence,
  HELP_FLAG,
  optionalFlags,
  PROGRAM,
  wrap,
  type CommandHelp,
  type FlagGroup,
  type FlagHelp,
} from './helpText.js';

const SYNOPSIS_WIDTH = 100;

/** Repository paths in a text become links: `docs/x.md` to `x.md`, `schemas/…` and `examples/…` to `../…`. */
function linked(text: string): string {
  return text.replace(/\b(docs|schemas|examples)\/[\w./-]*[\w/]/g, (path, folder: string) => {
    if (folder === 'docs') return `[${path.slice('docs/'.length)}](${path.slice('docs/'.length)})`;
    return `[${path.replace(/^.*\/(?=[^/]+\/?$)/, '')}](../${path})`;
  });
}

function cell(text: string): string {
  return linked(text).replaceAll('|', '\\|');
}

function code(text: string): string {
  return `\`${text}\``;
}

/** A default that is one literal (`builtin`, `60`, `memory:`) is shown as code. */
function defaultCell(value: string | undefined): string {
  if (value === undefined) return '';
  return /^[\w.:/{}-]+$/.test(value) && !/^\d+$/.test(value) ? code(value) : cell(value);
}

/** The words of an argument form; a bracketed or quoted group is one word. */
function formWords(args: string): string[] {
  const words: string[] = [];
  let word = '';
  let depth = 0;
  for (const char of args) {
    if (char === ' ' && depth === 0) {
      if (word !== '') words.push(word);
      word = '';
      continue;
    }
    if (char === '[' || char === '(' || (char === '"' && !word.includes('"'))) depth++;
    else if (char === ']' || char === ')' || char === '"') depth--;
    word += char;
  }
  if (word !== '') words.push(word);
  return words;
}

/** Every form of the command, `[options]` spelled out as the flags it stands for, wrapped between words. */
export function synopsis(command: CommandHelp): string[] {
  const options = optionalFlags(command).map((flag) => `[${flag.flag}]${flag.repeatable === true ? '...' : ''}`);
  const lead = `${PROGRAM} ${command.name}`;
  return command.forms.flatMap((form) => {
    const words = formWords(form.args).flatMap((word) => (word === '[options]' ? options : [word]));
    const lines: string[] = [];
    let line = lead;
    for (const word of words) {
      if (line.length + 1 + word.length > SYNOPSIS_WIDTH && line.trim() !== lead) {
        lines.push(line);
        line = ' ';
      }
      line = `${line} ${word}`;
    }
    lines.push(line);
    return lines;
  });
}

function flagRow(flag: FlagHelp): string {
  return `|${cell(code(flag.flag))}|${cell(flagSentence(flag, false))}|${defaultCell(flag.default)}|`;
}

/** The values of a SPEC or MODE, as a list under the table. */
function valueLists(groups: readonly FlagGroup[]): string[] {
  return groups
    .flatMap((group) => group.flags)
    .filter((flag) => flag.values !== undefined)
    .flatMap((flag) => [
      '',
      `${code(flag.flag)}:`,
      '',
      ...(flag.values ?? []).map(([value, text]) => `- ${code(value)}: ${linked(text)}`),
    ]);
}

/**
 * One table of the command's flags, a row per group title. A group shared with a command above (the model limits,
 * the budgets, the target) is one row naming its flags and where they are described.
 */
function flagTable(command: CommandHelp, shown: Map<object, string>): string[] {
  const rows = ['|flag|meaning|default|', '|---|---|---|'];
  const described: FlagGroup[] = [];

  for (const group of command.groups) {
    const flags = group.flags.filter((flag) => flag !== HELP_FLAG);
    if (flags.length === 0) continue;
    const first = shown.get(group);
    if (first !== undefined) {
      // Its flags are in the synopsis above; their rows are in the first command's table.
      rows.push(`|**${cell(group.title.replace(/ \(.*\)$/, ''))}**|as for [${code(first)}](#${first})||`);
      continue;
    }
    shown.set(group, command.name);
    described.push(group);
    if (group !== command.groups[0] || group.title !== 'Options') rows.push(`|**${cell(group.title)}**|||`);
    for (const flag of flags) {
      const where = shown.get(flag);
      if (where === undefined) shown.set(flag, command.name);
      rows.push(where === undefined ? flagRow(flag) : `|${cell(code(flag.flag))}|as for [${code(where)}](#${where})||`);
    }
  }
  return [...rows, ...valueLists(described)];
}

function section(command: CommandHelp, shown: Map<object, string>): string[] {
  const out = [`## ${code(command.name)}`, ''];
  for (const paragraph of command.about) out.push(...wrap(linked(paragraph), 120), '');
  out.push('```text', ...synopsis(command), '```', '');
  if (command.groups.length > 0) out.push(...flagTable(command, shown), '');
  for (const paragraph of command.notes ?? []) out.push(...wrap(linked(paragraph), 120), '');
  const variables = command.environment ?? [];
  const fresh = variables.filter((variable) => !shown.has(variable));
  if (fresh.length > 0) {
    out.push('|environment variable|meaning|default|', '|---|---|---|');
    for (const variable of fresh) {
      shown.set(variable, command.name);
      out.push(`|${code(variable.name)}|${cell(variable.text)}|${defaultCell(variable.default)}|`);
    }
    out.push('');
  }
  const seen = variables.filter((variable) => !fresh.includes(variable));
  const first = seen[0] === undefined ? undefined : shown.get(seen[0]);
  if (first !== undefined) {
    const lead = fresh.length === 0 ? 'Environment: as for' : 'Also the environment variables of';
    out.push(`${lead} [${code(first)}](#${first}).`, '');
  }
  const exitOf = shown.get(command.exit);
  if (exitOf !== undefined) {
    out.push(`Exit status: as for [${code(exitOf)}](#${exitOf}).`, '');
    return out;
  }
  shown.set(command.exit, command.name);
  const exit = command.exit.map(([status, meaning]) => `${code(String(status))} ${meaning}`).join(', ');
  out.push(...wrap(`Exit status: ${linked(exit)}.`, 120), '');
  return out;
}

/** The whole of docs/cli.md. */
export function renderCliReference(commands: readonly CommandHelp[]): string {
  const out = [
    '# Command-line reference',
    '',
    '<!-- Generated from src/cli/usage.ts by `npm run docs:cli`: edit that file, then run it. -->',
    '',
    `Every command, flag, environment variable and exit code, as \`${PROGRAM} COMMAND --help\` prints them. Every`,
    `command takes \`-h, --help\`.`,
    '',
  ];
  const shown = new Map<object, string>();
  for (const command of commands) out.push(...section(command, shown));
  return `${out.join('\n').trimEnd()}\n`;
}
