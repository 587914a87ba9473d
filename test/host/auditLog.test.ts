/** The audit log: whitelisted fields in a fixed order, files created 0600 for append, failures kept for close(). */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { isModelInputError } from '../../src/errors.js';
import { createAuditLog, MAX_AUDIT_STRING, silentAuditLog } from '../../src/host/auditLog.js';
import type { AuditEntry } from '../../src/host/types.js';

const CLOCK = () => new Date('2026-07-28T12:00:00.000Z');
const ENTRY: Omit<AuditEntry, 'time'> = {
  reason: 'approval_denied',
  decision: 'refused',
  tokens: 1600,
  bytes: 5120,
  model: 'anthropic:claude-haiku-4',
  round: 1,
  key: 'pick_files',
  method: 'sampling/createMessage',
  tool: 'summarize_repo',
  principal: 'alice',
  serverKey: 'http://127.0.0.1:8080/mcp',
  server: 'mcp-model-input',
};

function collect() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { stream, lines: () => chunks.join('').split('\n').filter(Boolean) };
}

describe('createAuditLog on a stream', () => {
  it('writes one JSON line per entry, keys in a stable order, with the injected time', async () => {
    const { stream, lines } = collect();
    const audit = await createAuditLog({ stream }, CLOCK);
    audit.record(ENTRY);
    audit.record({
      server: 's',
      serverKey: 'k',
      tool: 't',
      method: 'roots/list',
      key: 'r',
      round: 2,
      decision: 'fulfilled',
    });
    await audit.close();
    expect(lines()).toEqual([
      '{"time":"2026-07-28T12:00:00.000Z","server":"mcp-model-input","serverKey":"http://127.0.0.1:8080/mcp",' +
        '"principal":"alice","tool":"summarize_repo","round":1,"key":"pick_files","method":"sampling/createMessage",' +
        '"decision":"refused","model":"anthropic:claude-haiku-4","bytes":5120,"tokens":1600,"reason":"approval_denied"}',
      '{"time":"2026-07-28T12:00:00.000Z","server":"s","serverKey":"k","tool":"t","round":2,"key":"r",' +
        '"method":"roots/list","decision":"fulfilled"}',
    ]);
  });

  it('writes the tool loop fields last, in a fixed order, cut like every string', async () => {
    const { stream, lines } = collect();
    const audit = await createAuditLog({ stream }, CLOCK);
    audit.record({
      toolUse: 'read_file src/index.ts',
      toolCalls: `list_directory .; read_file ${'a'.repeat(400)}`,
      toolChoice: 'auto',
      tools: 'list_directory,read_file,search',
      decision: 'approved',
      round: 3,
      key: 'explore',
      method: 'sampling/createMessage',
      tool: 'summarize_repo',
      serverKey: 'k',
      server: 's',
    });
    await audit.close();
    const [line = ''] = lines();
    const parsed = JSON.parse(line) as Record<string, string>;
    expect(Object.keys(parsed).slice(-4)).toEqual(['tools', 'toolChoice', 'toolCalls', 'toolUse']);
    expect(parsed['tools']).toBe('list_directory,read_file,search');
    expect(parsed['toolCalls']).toHaveLength(MAX_AUDIT_STRING);
    expect(parsed['toolCalls']?.endsWith('…')).toBe(true);
  });

  it('never writes prompt or response text, whatever extra fields a caller passes', async () => {
    const { stream, lines } = collect();
    const audit = await createAuditLog({ stream }, CLOCK);
    const leaky = {
      ...ENTRY,
      messages: [{ role: 'user', content: { type: 'text', text: 'SECRET PROMPT' } }],
      systemPrompt: 'SECRET SYSTEM',
      content: { type: 'text', text: 'SECRET ANSWER' },
      time: 'forged',
    };
    audit.record(leaky as Omit<AuditEntry, 'time'>);
    await audit.close();
    const [line = ''] = lines();
    expect(line).not.toMatch(/SECRET|forged/);
    expect(Object.keys(JSON.parse(line))).toEqual([
      'time',
      'server',
      'serverKey',
      'principal',
      'tool',
      'round',
      'key',
      'method',
      'decision',
      'model',
      'bytes',
      'tokens',
      'reason',
    ]);
  });

  it('cuts long strings and drops fields of the wrong type', async () => {
    const { stream, lines } = collect();
    const audit = await createAuditLog({ stream }, CLOCK);
    const entry = { ...ENTRY, reason: 'r'.repeat(10_000), bytes: Number.NaN, tokens: -1, round: '1' };
    audit.record(entry as unknown as Omit<AuditEntry, 'time'>);
    await audit.close();
    const parsed = JSON.parse(lines()[0] ?? '');
    expect(parsed.reason).toHaveLength(MAX_AUDIT_STRING);
    expect(parsed.reason.endsWith('…')).toBe(true);
    expect(parsed).not.toHaveProperty('bytes');
    expect(parsed).not.toHaveProperty('tokens');
    expect(parsed).not.toHaveProperty('round');
  });

  it('never throws from record on a failing stream (nor lets its error event loose); close() reports it', async () => {
    const broken = new Writable({ write: (_chunk, _encoding, done) => done(new Error('disk full')) });
    const audit = await createAuditLog({ stream: broken }, CLOCK);
    expect(() => audit.record(ENTRY)).not.toThrow();
    expect(() => audit.record(ENTRY)).not.toThrow();
    const error = await audit.close().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isModelInputError(error) && error.code).toBe('config_invalid');
    expect((error as Error).message).toContain('disk full');
  });

  it('never throws from record when the clock fails or the entry is garbage', async () => {
    const audit = await createAuditLog({ stream: new PassThrough() }, () => new Date(Number.NaN));
    expect(() => audit.record(ENTRY)).not.toThrow();
    await expect(audit.close()).rejects.toThrow(/could not be written/);
    const other = await createAuditLog({ stream: new PassThrough() }, CLOCK);
    expect(() => other.record(null as unknown as Omit<AuditEntry, 'time'>)).not.toThrow();
    await expect(other.close()).rejects.toThrow(/could not be written/);
  });

  it('escapes what JSON leaves raw but a terminal obeys (C1 CSI, bidi, line separators); the line still parses', async () => {
    const { stream, lines } = collect();
    const audit = await createAuditLog({ stream }, CLOCK);
    const hostile = 'evil\x9b2J\u202e\u2028\u{E0001}name';
    audit.record({ ...ENTRY, server: hostile, key: `k\x85${hostile}` });
    await audit.close();
    const [line = ''] = lines();
    expect(line).not.toMatch(/[\x7f-\x9f\u2028\u2029\u202e]/);
    expect(line).not.toMatch(/[\ud800-\udfff]/);
    expect(line).toContain('evil\\u009b2J\\u202e\\u2028\\udb40\\udc01name');
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed['server']).toBe(hostile);
    expect(parsed['key']).toBe(`k\x85${hostile}`);
  });

  it('ignores records after close', async () => {
    const { stream, lines } = collect();
    const audit = await createAuditLog({ stream }, CLOCK);
    await audit.close();
    expect(() => audit.record(ENTRY)).not.toThrow();
    await audit.close();
    expect(lines()).toEqual([]);
  });
});

describe('createAuditLog on a file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mmi-audit-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the file with mode 0600 and appends to what is there', async () => {
    const file = join(dir, 'audit.jsonl');
    const first = await createAuditLog({ file }, CLOCK);
    first.record(ENTRY);
    await first.close();
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await createAuditLog({ file }, CLOCK);
    second.record({ ...ENTRY, round: 2 });
    await second.close();
    const rounds = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).round);
    expect(rounds).toEqual([1, 2]);
  });

  it('keeps the lines of an existing file', async () => {
    const file = join(dir, 'existing.jsonl');
    await writeFile(file, '{"old":true}\n');
    const audit = await createAuditLog({ file }, CLOCK);
    audit.record(ENTRY);
    await audit.close();
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines[0]).toBe('{"old":true}');
    expect(lines).toHaveLength(2);
  });

  it('refuses a file whose directory does not exist, naming the path', async () => {
    const file = join(dir, 'missing', 'audit.jsonl');
    const error = await createAuditLog({ file }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isModelInputError(error) && error.code).toBe('config_invalid');
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('does not exist');
  });

  it('refuses a directory as the file', async () => {
    await expect(createAuditLog({ file: dir })).rejects.toThrow(/cannot be opened \(EISDIR\)/);
  });

  it('rotates the file to FILE.1 at maxBytes: never more than twice that on disk, the newest lines kept', async () => {
    const file = join(dir, 'rotating.jsonl');
    const audit = await createAuditLog({ file, maxBytes: 1024 }, CLOCK);
    for (let round = 1; round <= 100; round++) audit.record({ ...ENTRY, round });
    await audit.close();
    const current = await readFile(file, 'utf8');
    const previous = await readFile(`${file}.1`, 'utf8');
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(previous)).toBeLessThanOrEqual(1024);
    const rounds = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).round as number);
    // The two files hold the last lines, in order, without a gap.
    const kept = [...rounds(previous), ...rounds(current)];
    expect(kept.at(-1)).toBe(100);
    expect(kept).toEqual(kept.map((_, index) => 100 - kept.length + 1 + index));
  });

  it('counts what the file already holds toward maxBytes', async () => {
    const file = join(dir, 'full.jsonl');
    await writeFile(file, `${'x'.repeat(1020)}\n`);
    const audit = await createAuditLog({ file, maxBytes: 1024 }, CLOCK);
    audit.record(ENTRY);
    await audit.close();
    expect((await readFile(`${file}.1`, 'utf8')).startsWith('xxx')).toBe(true);
    expect(JSON.parse(await readFile(file, 'utf8')).round).toBe(1);
  });

  it('refuses a maxBytes below 1024', async () => {
    await expect(createAuditLog({ file: join(dir, 'small.jsonl'), maxBytes: 10 })).rejects.toThrow(/>= 1024/);
  });
});

describe('silentAuditLog', () => {
  it('accepts records and closes', async () => {
    expect(() => silentAuditLog.record(ENTRY)).not.toThrow();
    await expect(silentAuditLog.close()).resolves.toBeUndefined();
  });
});
