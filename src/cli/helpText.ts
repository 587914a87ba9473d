/**
 * The shape of a command's help (the data in usage.ts) and its rendering as terminal text. The same data renders
 * docs/cli.md (reference.ts), so a flag, its range and its default are written once.
 *
 * Texts are plain sentences; `code` spans are shown without their backticks on a terminal.
 */

/** One flag as `--help` lists it. */
export interface FlagHelp {
  /** As typed, with its value placeholder: `--max-calls N`, `--stdio`, `--http [HOST:]PORT`. */
  readonly flag: string;
  readonly text: string;
  /** The accepted integers, as the parser checks them: `[1, 3600]`; no upper bound: `[1024]`. */
  readonly range?: readonly [number, number?];
  readonly default?: string;
  /** Given more than once, each adds a value (the parser's `multiple`). */
  readonly repeatable?: boolean;
  /** The values of a SPEC or MODE, each with what it means. */
  readonly values?: readonly (readonly [value: string, text: string])[];
}

export interface FlagGroup {
  readonly title: string;
  readonly flags: readonly FlagHelp[];
}

export interface EnvHelp {
  readonly name: string;
  readonly text: string;
  readonly default?: string;
}

export interface CommandHelp {
  readonly name: string;
  /** The argument forms after `mcp-model-input NAME`; `[options]` stands for the flags no form names. */
  readonly forms: readonly { readonly args: string; readonly summary?: string }[];
  /** What the command does, ending with the guide that explains it: paragraphs. */
  readonly about: readonly string[];
  /** More of what `--help` says on a terminal; the page links the guide `about` names instead. */
  readonly details?: readonly string[];
  readonly groups: readonly FlagGroup[];
  /** Paragraphs after the flags. */
  readonly notes?: readonly string[];
  readonly environment?: readonly EnvHelp[];
  readonly exit: readonly (readonly [code: number, meaning: string])[];
}

export const PROGRAM = 'mcp-model-input';
const WIDTH = 104;
const FLAG_COLUMN = 29;

export const HELP_FLAG: FlagHelp = { flag: '-h, --help', text: 'show this help' };

/** `1-3600`, `1024 or more`. */
export function rangeText(range: FlagHelp['range']): string | undefined {
  if (range === undefined) return undefined;
  return range[1] === undefined ? `${range[0]} or more` : `${range[0]}-${range[1]}`;
}

/** The flag's name without its value placeholder: `--max-calls`. */
export function flagName(flag: FlagHelp): string {
  return flag.flag.replace(/^-h, /, '').split(' ')[0] as string;
}

/** The flags of a command that no argument form names (what `[options]` stands for); `--help` is not one. */
export function optionalFlags(command: CommandHelp): FlagHelp[] {
  const named = command.forms.map((form) => form.args).join(' ');
  return command.groups
    .flatMap((group) => group.flags)
    .filter((flag) => flag !== HELP_FLAG && !new RegExp(`${flagName(flag)}(?![a-z-])`).test(named));
}

function plain(text: string): string {
  return text.replaceAll('`', '');
}

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** `label` in a column of `column` characters after `indent`, then `text` wrapped beside it (or below, if too long). */
function columns(indent: number, label: string, column: number, text: string, width = WIDTH): string[] {
  const pad = ' '.repeat(indent + column);
  const body = wrap(text, width - indent - column);
  const head = `${' '.repeat(indent)}${label}`;
  if (body.length === 0) return [head];
  if (label.length + 1 > column) return [head, ...body.map((line) => pad + line)];
  return [head.padEnd(indent + column) + body[0], ...body.slice(1).map((line) => pad + line)];
}

/** The meaning of a flag with its range and default, as one sentence: `text (1-3600; default: 60)`. */
export function flagSentence(flag: FlagHelp, withDefault: boolean): string {
  const range = rangeText(flag.range);
  const extra = [range, withDefault && flag.default !== undefined ? `default: ${flag.default}` : undefined].filter(
    (part) => part !== undefined,
  );
  const text = flag.repeatable === true ? `repeatable: ${flag.text}` : flag.text;
  return extra.length === 0 ? text : `${text} (${extra.join('; ')})`;
}

function flagLines(flag: FlagHelp): string[] {
  const lines = columns(2, flag.flag, FLAG_COLUMN - 2, plain(flagSentence(flag, true)));
  const values = flag.values ?? [];
  const valueColumn = Math.min(Math.max(...values.map(([value]) => value.length)) + 2, 19);
  for (const [value, text] of values) lines.push(...columns(FLAG_COLUMN + 2, value, valueColumn, plain(text)));
  return lines;
}

function exitSentence(command: CommandHelp): string {
  return `Exit status: ${command.exit.map(([code, meaning]) => `${code} ${meaning}`).join(', ')}.`;
}

/** The text `mcp-model-input NAME --help` prints. */
export function renderHelp(command: CommandHelp): string {
  const usage = command.forms.map((form, index) =>
    `${index === 0 ? 'Usage:' : '      '} ${PROGRAM} ${command.name} ${form.args}`.trimEnd(),
  );
  const out: string[] = [...usage];
  for (const paragraph of [...command.about, ...(command.details ?? [])])
    out.push('', ...wrap(plain(paragraph), WIDTH));
  for (const group of command.groups) out.push('', `${group.title}:`, ...group.flags.flatMap(flagLines));
  for (const paragraph of command.notes ?? []) out.push('', ...wrap(plain(paragraph), WIDTH));
  if (command.environment !== undefined) {
    out.push('', 'Environment:');
    for (const variable of command.environment) {
      const text = variable.default === undefined ? variable.text : `${variable.text} (default: ${variable.default})`;
      out.push(...columns(2, variable.name, FLAG_COLUMN - 2, plain(text)));
    }
  }
  out.push('', ...wrap(plain(exitSentence(command)), WIDTH));
  return out.join('\n');
}

/** The text `mcp-model-input --help` prints: each command's forms with their summaries. */
export function renderMainHelp(title: string, commands: readonly CommandHelp[]): string {
  const out = [title, '', 'Usage:'];
  for (const command of commands) {
    for (const form of command.forms) {
      if (form.summary === undefined) continue;
      out.push(...columns(2, `${PROGRAM} ${command.name} ${form.args}`.trimEnd(), 46, plain(form.summary), 120));
    }
  }
  out.push(`  ${PROGRAM} --help | --version`, '', `Run '${PROGRAM} <command> --help' for a command's options.`);
  return out.join('\n');
}
