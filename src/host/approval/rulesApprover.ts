/**
 * `--approve rules:FILE`: decisions from a YAML or JSON rules file, read and checked once when the
 * approver is created. The first rule that matches an embedded request decides it; no match denies;
 * a round runs only if every one of its requests is allowed. A request that offers tools (a tool
 * loop, SEP-1577) is allowed only by a rule that lists every tool it offers in `tools`.
 *
 * `contains` and `invisible` match on what the dialog would show (requestText.ts): every field the model
 * receives, with characters that render invisibly written out and the text that tag characters spell, so a
 * word a person could have read in the dialog is a word a rule can deny on.
 */
import { readFile } from 'node:fs/promises';

import { parseDocument } from 'yaml';

import { ModelInputError } from '../../errors.js';
import { terminalSafe } from '../../protocol/sanitize.js';
import type { ApprovalDecision, ApprovalRound, Approver } from '../types.js';
import { matchText, requestText } from './requestText.js';

export interface ApprovalRule {
  /**
   * The server: its key (`ConnectedServer.key`: the URL, or `stdio:` + the command line) exactly; a
   * `deny` rule also matches the server's (unverified) name. An `allow` rule never matches a name:
   * any server can call itself anything. `*` or absent: any server.
   */
  server?: string;
  /** The tool being called; `*` or absent: any tool. */
  tool?: string;
  /** The input key of the embedded request; `*` or absent: any key. */
  key?: string;
  decision: 'allow' | 'deny';
  /** For `allow`: only requests whose `maxTokens` is at most this. */
  maxTokens?: number;
  /**
   * For `allow`: the tools a request may offer the model. Without it, an allow rule allows only
   * requests that offer no tools.
   */
  tools?: string[];
  /**
   * The rule matches only requests whose text (as the dialog shows it, see requestText.ts) contains one of
   * these, ignoring case.
   */
  contains?: string[];
  /** `true`: the rule matches only requests carrying characters that render invisibly; `false`: only clean ones. */
  invisible?: boolean;
}

export const MAX_RULES_FILE_BYTES = 256 * 1024;
const RULE_KEYS = ['server', 'tool', 'key', 'decision', 'maxTokens', 'tools', 'contains', 'invisible'];

function invalid(file: string, problem: string, cause?: unknown): ModelInputError<'config_invalid'> {
  return new ModelInputError('config_invalid', `rules file ${file}: ${problem}`, { cause });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkRule(file: string, value: unknown, at: string): ApprovalRule {
  if (!isRecord(value)) throw invalid(file, `${at} must be a mapping`);
  const unknown = Object.keys(value).find((name) => !RULE_KEYS.includes(name));
  if (unknown !== undefined) {
    throw invalid(file, `${at}: unknown key '${unknown.slice(0, 40)}' (allowed: ${RULE_KEYS.join(', ')})`);
  }
  const rule: ApprovalRule = { decision: 'deny' };
  for (const name of ['server', 'tool', 'key'] as const) {
    const field = value[name];
    if (field === undefined) continue;
    if (typeof field !== 'string' || field === '') throw invalid(file, `${at}: ${name} must be a non-empty string`);
    rule[name] = field;
  }
  if (value.decision === undefined) throw invalid(file, `${at}: decision is missing (allow or deny)`);
  if (value.decision !== 'allow' && value.decision !== 'deny') {
    const got = JSON.stringify(value.decision).slice(0, 40);
    throw invalid(file, `${at}: decision must be allow or deny (got ${got})`);
  }
  rule.decision = value.decision;
  if (value.maxTokens !== undefined) {
    const ceiling = value.maxTokens;
    if (typeof ceiling !== 'number' || !Number.isSafeInteger(ceiling) || ceiling < 1) {
      throw invalid(file, `${at}: maxTokens must be a positive integer`);
    }
    if (rule.decision !== 'allow') throw invalid(file, `${at}: maxTokens only applies to allow rules`);
    rule.maxTokens = ceiling;
  }
  if (value.tools !== undefined) {
    const tools = value.tools;
    if (
      !Array.isArray(tools) ||
      tools.length === 0 ||
      !tools.every((name) => typeof name === 'string' && name !== '')
    ) {
      throw invalid(file, `${at}: tools must be a non-empty list of tool names`);
    }
    if (rule.decision !== 'allow') throw invalid(file, `${at}: tools only applies to allow rules`);
    rule.tools = tools as string[];
  }
  if (value.contains !== undefined) {
    const words = typeof value.contains === 'string' ? [value.contains] : value.contains;
    if (
      !Array.isArray(words) ||
      words.length === 0 ||
      !words.every((word) => typeof word === 'string' && word !== '')
    ) {
      throw invalid(file, `${at}: contains must be a non-empty string or list of strings`);
    }
    rule.contains = words as string[];
  }
  if (value.invisible !== undefined) {
    if (typeof value.invisible !== 'boolean') throw invalid(file, `${at}: invisible must be true or false`);
    rule.invisible = value.invisible;
  }
  return rule;
}

/** Reads and checks a rules file; every problem is a one-line `ModelInputError('config_invalid')`. */
export async function loadApprovalRules(file: string): Promise<ApprovalRule[]> {
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.length > MAX_RULES_FILE_BYTES) throw invalid(file, `larger than ${MAX_RULES_FILE_BYTES} bytes`);
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof ModelInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw invalid(file, code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? 'error'})`, error);
  }
  const document = parseDocument(text, { uniqueKeys: true });
  const syntax = document.errors[0];
  if (syntax !== undefined) {
    const first = (syntax.message.split('\n')[0] ?? syntax.code).replace(/:$/, '');
    throw invalid(file, `not valid YAML or JSON: ${first}`);
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    throw invalid(file, `cannot be read as data (${(error as Error).message.split('\n')[0]})`, error);
  }
  if (!isRecord(data)) throw invalid(file, 'must be a mapping with a rules list');
  const extra = Object.keys(data).find((name) => name !== 'rules');
  if (extra !== undefined) throw invalid(file, `unknown top-level key '${extra.slice(0, 40)}' (allowed: rules)`);
  if (!Array.isArray(data.rules)) throw invalid(file, 'rules must be a list');
  return data.rules.map((rule, index) => checkRule(file, rule, `rule ${index + 1}`));
}

function matches(pattern: string | undefined, ...values: string[]): boolean {
  return pattern === undefined || pattern === '*' || values.includes(pattern);
}

/**
 * Whether `rule` names this server: by its key, or — for a deny rule only — by its self-declared
 * name. The name is the server's own claim (`serverInfo`), so it may take model access away, never grant it.
 */
function matchesServer(rule: ApprovalRule, server: ApprovalRound['server']): boolean {
  return rule.decision === 'deny' ? matches(rule.server, server.name, server.key) : matches(rule.server, server.key);
}

/** Why no rule matched: says so when an allow rule names the server only by its (unverified) name. */
function noMatchReason(rules: readonly ApprovalRule[], round: ApprovalRound, key: string, inputKey: string): string {
  const byName = rules.findIndex(
    (rule) =>
      rule.decision === 'allow' &&
      rule.server === round.server.name &&
      matches(rule.tool, round.tool) &&
      matches(rule.key, inputKey),
  );
  if (byName < 0) return `input ${key}: no matching rule`;
  const serverKey = terminalSafe(round.server.key, 200);
  return `input ${key}: no matching rule (rule ${byName + 1} allows the server by its unverified name; allow rules match its key, ${serverKey})`;
}

/** What the content conditions of a rule see of one request: computed once, only when a rule has one. */
interface Content {
  text: string;
  invisible: number;
}

function matchesContent(rule: ApprovalRule, content: () => Content): boolean {
  if (rule.invisible !== undefined && rule.invisible !== content().invisible > 0) return false;
  if (rule.contains === undefined) return true;
  const { text } = content();
  return rule.contains.some((word) => text.includes(word.toLowerCase()));
}

/** Why a deny rule with content conditions matched: `(contains "ignore")`, `(3 invisible characters)`. */
function contentNote(rule: ApprovalRule, content: Content): string {
  const notes: string[] = [];
  const word = rule.contains?.find((candidate) => content.text.includes(candidate.toLowerCase()));
  if (word !== undefined) notes.push(`contains ${JSON.stringify(terminalSafe(word, 60))}`);
  if (rule.invisible === true) notes.push(`${content.invisible} invisible character(s)`);
  return notes.length === 0 ? '' : ` (${notes.join('; ')})`;
}

/** The decision for one round: approve only if every sampling request in it is allowed. */
export function decideByRules(rules: readonly ApprovalRule[], round: ApprovalRound): ApprovalDecision {
  for (const request of round.requests) {
    const key = `'${terminalSafe(request.key, 80)}'`;
    let seen: Content | undefined;
    const content = (): Content => {
      if (seen === undefined) {
        const text = requestText(request);
        seen = { text: matchText(text), invisible: text.invisible };
      }
      return seen;
    };
    const index = rules.findIndex(
      (rule) =>
        matchesServer(rule, round.server) &&
        matches(rule.tool, round.tool) &&
        matches(rule.key, request.key) &&
        matchesContent(rule, content),
    );
    const rule = rules[index];
    if (rule === undefined) return { kind: 'deny', reason: noMatchReason(rules, round, key, request.key) };
    if (rule.decision === 'deny') {
      const note = rule.contains === undefined && rule.invisible === undefined ? '' : contentNote(rule, content());
      return { kind: 'deny', reason: `input ${key}: denied by rule ${index + 1}${note}` };
    }
    if (rule.maxTokens !== undefined && request.params.maxTokens > rule.maxTokens) {
      return {
        kind: 'deny',
        reason: `input ${key}: maxTokens ${request.params.maxTokens} is above the ceiling ${rule.maxTokens} of rule ${index + 1}`,
      };
    }
    const offered = (request.params.tools ?? []).map((tool) => tool.name);
    const unlisted = offered.filter((name) => !(rule.tools ?? []).includes(name));
    if (unlisted.length > 0) {
      const names = unlisted.map((name) => terminalSafe(name, 64)).join(', ');
      return {
        kind: 'deny',
        reason: `input ${key}: offers tools rule ${index + 1} does not list (${names.slice(0, 300)}); list them in its tools`,
      };
    }
  }
  return { kind: 'approve', by: 'rule' };
}

/** Loads `file` once; the approver then decides every round from those rules. */
export async function createRulesApprover(file: string): Promise<Approver> {
  const rules = await loadApprovalRules(file);
  return { review: async (round) => decideByRules(rules, round) };
}
