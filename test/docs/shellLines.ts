/**
 * The commands of a ```sh block, as the docs' code block test reads them: continuation lines joined, comments
 * dropped, words split the way a POSIX shell splits them (quotes, no expansion), one simple command per `&&`, `||`,
 * `;` or `|`, redirections and their targets set aside, leading `NAME=value` assignments kept apart.
 */
export interface ShellCommand {
  /** The block line the command starts on (1-based, within the block). */
  line: number;
  /** The logical line as written (continuations joined). */
  text: string;
  env: Record<string, string>;
  words: string[];
}

export interface ShellParse {
  commands: ShellCommand[];
  /** What is not a command a user types: prompts, shell control structures, unbalanced quotes. */
  problems: string[];
}

const CONTROL = new Set(['for', 'while', 'until', 'if', 'then', 'else', 'fi', 'do', 'done', 'case', 'esac']);

/** Words and operators of one logical line; undefined when a quote is left open. */
function tokens(line: string): string[] | undefined {
  const out: string[] = [];
  let word: string | undefined;
  let i = 0;
  const push = () => {
    if (word !== undefined) out.push(word);
    word = undefined;
  };
  while (i < line.length) {
    const char = line[i]!;
    if (char === "'" || char === '"') {
      const end = line.indexOf(char, i + 1);
      if (end < 0) return undefined;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (char === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[i + 1];
      i += 2;
    } else if (/\s/.test(char)) {
      push();
      i++;
    } else if (char === '#' && word === undefined) {
      break; // a comment
    } else {
      const operator = /^(&&|\|\||;|\||\d?>>|\d?>&\d|\d?>|<)/.exec(line.slice(i));
      if (operator !== null && (word === undefined || !/^\d/.test(operator[0]))) {
        push();
        out.push(operator[0]);
        i += operator[0].length;
      } else {
        word = (word ?? '') + char;
        i++;
      }
    }
  }
  push();
  return out;
}

export function parseShellBlock(code: string): ShellParse {
  const commands: ShellCommand[] = [];
  const problems: string[] = [];
  const lines = code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = lines[i]!;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++i]!.trim()}`;
    if (text.trim() === '' || text.trim().startsWith('#')) continue;
    if (/^\s*[$>%] /.test(text)) {
      problems.push(`line ${start + 1}: a prompt ('${text.trim().slice(0, 2)}'): write only the command`);
      continue;
    }
    const words = tokens(text);
    if (words === undefined) {
      problems.push(`line ${start + 1}: an unbalanced quote`);
      continue;
    }
    let current: string[] = [];
    const flush = () => {
      const env: Record<string, string> = {};
      while (current.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(current[0]!)) {
        const [name, ...value] = current.shift()!.split('=');
        env[name!] = value.join('=');
      }
      if (current.length > 0 && CONTROL.has(current[0]!)) {
        problems.push(`line ${start + 1}: shell control ('${current[0]}'): show one command per line`);
      } else if (current.length > 0 || Object.keys(env).length > 0) {
        commands.push({ line: start + 1, text: text.trim(), env, words: current });
      }
      current = [];
    };
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!;
      if (['&&', '||', ';', '|'].includes(word)) flush();
      else if (/^\d?(>>|>|<)$/.test(word))
        w++; // a redirection: its target is not an argument
      else if (/^\d?>&\d$/.test(word)) continue;
      else current.push(word);
    }
    flush();
  }
  return { commands, problems };
}
