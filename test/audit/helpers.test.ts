/** The audit's small parts: command splitting, state tampering, argument changes, headers, rendering. */
import { describe, expect, it } from 'vitest';

import { changeArguments } from '../../src/audit/changeArguments.js';
import { discoverProblems, toolsListProblems } from '../../src/audit/checks/discovery.js';
import { mirroredHeaders, readBody } from '../../src/audit/httpChannel.js';
import { renderAuditText } from '../../src/audit/renderReport.js';
import { RULES } from '../../src/audit/rules.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { createScriptedHost } from '../../src/audit/scriptedHost.js';
import { splitCommand } from '../../src/host/target.js';
import { isReadableState, tamperState } from '../../src/audit/stateToken.js';
import type { AuditReport } from '../../src/audit/types.js';

describe('splitCommand', () => {
  it('splits like a shell for plain words and quotes, without expanding anything', () => {
    expect(splitCommand(`node  dist/cli.js serve --root '/tmp/a b' --x "say \\"hi\\"" c\\ d $HOME`)).toEqual([
      'node',
      'dist/cli.js',
      'serve',
      '--root',
      '/tmp/a b',
      '--x',
      'say "hi"',
      'c d',
      '$HOME',
    ]);
    expect(splitCommand(`a '' b`)).toEqual(['a', '', 'b']);
  });

  it('rejects an empty command and an open quote as usage errors', () => {
    expect(() => splitCommand('   ')).toThrow(expect.objectContaining({ code: 'usage' }));
    expect(() => splitCommand(`node 'oops`)).toThrow(/unterminated ' quote/);
  });
});

describe('requestState tampering', () => {
  it('keeps readable payloads well formed, so an unverified server parses and accepts them', () => {
    const body = Buffer.from(JSON.stringify({ phase: 'draft' })).toString('base64url');
    const token = `${body}.c2lnbmF0dXJl`;
    expect(isReadableState(token)).toBe(true);
    const tampered = tamperState(token);
    expect(tampered).not.toBe(token);
    const [changed, tag] = tampered.split('.');
    expect(tag).toBe('c2lnbmF0dXJl');
    expect(JSON.parse(Buffer.from(changed ?? '', 'base64url').toString())).toEqual({
      phase: 'draft',
      audit_tampered: true,
    });
    expect(JSON.parse(tamperState('{"a":1}'))).toEqual({ a: 1, audit_tampered: true });
  });

  it('flips one character of an opaque token', () => {
    const token = 'mmi1.k1.AAAAAAAAAAAAAAAA.Zm9vYmFyYmF6cXV4';
    expect(isReadableState(token)).toBe(false);
    const tampered = tamperState(token);
    expect(tampered).toHaveLength(token.length);
    expect([...tampered].filter((char, index) => char !== token[index])).toHaveLength(1);
  });
});

describe('changeArguments', () => {
  it('changes a given string, else sets an unused string property, else shifts an integer within bounds', () => {
    expect(changeArguments({ audience: 'dev' }, {})).toEqual({ audience: 'dev-changed' });
    const schema = {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['a'] },
        note: { type: 'string' },
        n: { type: 'integer', maximum: 3 },
      },
    };
    expect(changeArguments({}, schema)).toEqual({ note: 'audit-changed' });
    const numeric = { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 3, default: 3 } } };
    expect(changeArguments({}, numeric)).toEqual({ n: 2 });
    expect(changeArguments({}, { type: 'object', properties: { flag: { type: 'boolean' } } })).toBeUndefined();
  });

  it('stays within the schema: another enum member, a string that fits, nothing for a pattern', () => {
    const schema = (text: Record<string, unknown>) => ({ type: 'object', properties: { text } });
    expect(changeArguments({ text: 'hello' }, schema({ type: 'string', enum: ['hello', 'world'] }))).toEqual({
      text: 'world',
    });
    expect(changeArguments({ text: 'hello' }, schema({ type: 'string', enum: ['hello'] }))).toBeUndefined();
    expect(changeArguments({ text: 'hello' }, schema({ type: 'string', maxLength: 5 }))).toEqual({ text: 'hellx' });
    expect(changeArguments({ text: 'hello' }, schema({ type: 'string', pattern: '^h' }))).toBeUndefined();
    expect(changeArguments({ text: 'hello' }, schema({ const: 'hello' }))).toBeUndefined();
    const unused = { type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b'], default: 'a' } } };
    expect(changeArguments({}, unused)).toEqual({ mode: 'b' });
  });
});

describe('discovery result checks, one problem at a time', () => {
  const discover = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} };

  it('server/discover: complete, lists 2026-07-28, has a capabilities object', () => {
    expect(discoverProblems(discover)).toEqual([]);
    expect(discoverProblems({ ...discover, resultType: 'input_required' })).toEqual(['resultType is "input_required"']);
    expect(discoverProblems({ ...discover, supportedVersions: ['2025-11-25'] })).toEqual([
      'supportedVersions is ["2025-11-25"], without 2026-07-28',
    ]);
    expect(discoverProblems({ ...discover, supportedVersions: '2026-07-28' })).toEqual([
      'supportedVersions is "2026-07-28", without 2026-07-28',
    ]);
    expect(discoverProblems({ ...discover, capabilities: [] })).toEqual(['capabilities is not an object']);
    expect(discoverProblems({ resultType: 'complete', supportedVersions: ['2026-07-28'] })).toEqual([
      'capabilities is not an object',
    ]);
  });

  it('tools/list: complete, an array of tools, each named with an object inputSchema', () => {
    const tool = { name: 't', inputSchema: { type: 'object' } };
    expect(toolsListProblems({ resultType: 'complete', tools: [tool] })).toEqual([]);
    expect(toolsListProblems({ tools: [tool] })).toEqual(['resultType is null']);
    expect(toolsListProblems({ resultType: 'complete', tools: {} })).toEqual(['tools is not an array']);
    expect(toolsListProblems({ resultType: 'complete', tools: [tool, { inputSchema: { type: 'object' } }] })).toEqual([
      'tools[1] has no name',
    ]);
    expect(toolsListProblems({ resultType: 'complete', tools: [{ ...tool, name: '' }] })).toEqual([
      'tools[0] has no name',
    ]);
    expect(
      toolsListProblems({ resultType: 'complete', tools: [{ name: 'a', inputSchema: { type: 'array' } }] }),
    ).toEqual(['a: inputSchema is not an object schema']);
    expect(toolsListProblems({ resultType: 'complete', tools: [{ name: 'b' }] })).toEqual([
      'b: inputSchema is not an object schema',
    ]);
  });
});

describe('readBody', () => {
  it('reads UTF-8 up to the limit, refuses more (declared or streamed) and refuses other encodings', async () => {
    expect(await readBody(new Response('{"a":"é"}'), 64)).toEqual({ text: '{"a":"é"}' });
    expect(await readBody(new Response(null, { status: 202 }), 64)).toEqual({ text: '' });
    expect(await readBody(new Response('x'.repeat(65), { headers: { 'content-length': '65' } }), 64)).toEqual({
      failure: 'response body of 65 bytes is larger than 64 bytes',
    });
    expect(await readBody(new Response('x'.repeat(65)), 64)).toEqual({
      failure: 'response body is larger than 64 bytes',
    });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(20).fill(0x20));
        controller.close();
      },
    });
    expect(await readBody(new Response(stream), 64)).toEqual({ failure: 'response body is larger than 64 bytes' });
    expect(await readBody(new Response(new Uint8Array([0x7b, 0xe9, 0x7d])), 64)).toEqual({
      failure: 'response body is not UTF-8',
    });
  });
});

describe('the HTTP probe headers and the scripted host', () => {
  it('mirrors method, name and version from the body', () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    expect(mirroredHeaders({ method: 'tools/call', params: { name: 't', _meta: meta } })).toEqual({
      'mcp-protocol-version': '2099-01-01',
      'mcp-method': 'tools/call',
      'mcp-name': 't',
    });
    expect(mirroredHeaders({ method: 'tools/list' })).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    });
  });

  it('answers scripted keys in order, declines elicitation, lists no roots, and knows nothing else', async () => {
    const host = createScriptedHost({ pick: ['["a"]', '["b"]'] }, createBuiltinModel());
    const ask = (key: string, method = 'sampling/createMessage') =>
      host.answer(key, { method, params: { messages: [], maxTokens: 5 } });
    expect(await ask('pick')).toMatchObject({ role: 'assistant', content: { type: 'text', text: '["a"]' } });
    expect(await ask('pick')).toMatchObject({ content: { text: '["b"]' } });
    expect(await ask('pick')).toMatchObject({ content: { text: '["b"]' } });
    expect(await ask('other')).toMatchObject({ role: 'assistant', model: 'mcp-model-input/builtin-heuristic' });
    expect(await ask('form', 'elicitation/create')).toEqual({ action: 'decline' });
    expect(await ask('roots', 'roots/list')).toEqual({ roots: [] });
    expect(await ask('x', 'tasks/get')).toBeUndefined();
  });
});

describe('renderAuditText', () => {
  it('prints one line per rule, the spec page under failures, and the summary', () => {
    const failing = RULES.findIndex((rule) => rule.id === 'discover.result');
    const rules = RULES.map((rule, index) => ({
      ...rule,
      status: index === failing ? ('fail' as const) : ('pass' as const),
      detail: index === failing ? 'resultType is "input_required"' : 'ok',
    }));
    const report: AuditReport = {
      format: 'mcp-model-input/audit@1',
      protocolVersion: '2026-07-28',
      negotiated: '2026-07-28',
      target: { transport: 'http', url: 'http://127.0.0.1:1/mcp' },
      summary: { pass: rules.length - 1, fail: 1, notApplicable: 0 },
      rules,
      observed: { tools: [], rounds: [], completed: false },
    };
    const text = renderAuditText(report);
    expect(text.split('\n')[0]).toBe('audit of http://127.0.0.1:1/mcp, protocol 2026-07-28');
    // The era comes first.
    expect(text.split('\n')[1]).toBe('negotiated era: 2026-07-28');
    expect(text).toContain('FAIL  discover.result                  resultType is "input_required"\n');
    expect(text).toContain(
      `${RULES[failing]?.title} — https://modelcontextprotocol.io/specification/2026-07-28/server/discover`,
    );
    expect(text.trimEnd().split('\n').at(-1)).toBe(`${rules.length - 1} pass, 1 fail, 0 not applicable`);
  });
});
