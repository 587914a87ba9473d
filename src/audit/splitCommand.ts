/**
 * Splits `--stdio "COMMAND"` into argv the way a POSIX shell would for simple words: whitespace
 * separates, single quotes are literal, double quotes allow \" and \\, a backslash escapes one
 * character. No expansion, pipes or redirections: the command is spawned without a shell.
 */
import { ModelInputError } from '../errors.js';

export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (command[index + 1] === '"' || command[index + 1] === '\\')) word += command[++index];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      started = true;
    } else if (char === '\\' && index + 1 < command.length) {
      word += command[++index];
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += char;
      started = true;
    }
  }
  if (quote !== undefined) throw new ModelInputError('usage', `--stdio: unterminated ${quote} quote in the command`);
  if (started) words.push(word);
  if (words.length === 0) throw new ModelInputError('usage', '--stdio: the command is empty');
  return words;
}
