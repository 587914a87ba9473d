/**
 * The host's own output-schema check: every call lists the tools afresh (a new schema object each time), so the
 * check must hold on the tenth call as on the first — including for schemas with an `$id`, which Ajv refuses to
 * hold twice — and what it keeps must stay bounded.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { HostError } from '../../src/host/hostError.js';
import { createOutputCheck, MAX_VALIDATORS } from '../../src/host/toolOutput.js';

/** A fresh definition, as a new `tools/list` gives it. */
function tool(id: string, property = 'summary'): Tool {
  return {
    name: 'summarize_repo',
    inputSchema: { type: 'object' },
    outputSchema: {
      $id: `https://schemas.example/${id}`,
      type: 'object',
      properties: { [property]: { type: 'string' } },
      required: [property],
    },
  };
}

const ok = { content: [], structuredContent: { summary: 'text' } };
const wrong = { content: [], structuredContent: { summary: 42 } };

describe('the output check across calls', () => {
  it('checks a schema with an $id on every call, not only the first', () => {
    for (let call = 0; call < 3; call++) {
      const check = createOutputCheck(tool('repeat'));
      expect(() => check(ok)).not.toThrow();
      expect(() => check(wrong)).toThrow(/structuredContent does not match its outputSchema/);
    }
  });

  it('keeps a bounded number of validators and compiles an evicted schema again when it returns', () => {
    const first = tool('first');
    expect(() => createOutputCheck(first)(ok)).not.toThrow();
    for (let index = 0; index < MAX_VALIDATORS + 5; index++) createOutputCheck(tool(`other-${index}`));
    // `first` fell out of the kept set; had it stayed in Ajv, adding it again would be refused as a duplicate $id.
    const again = createOutputCheck(tool('first'));
    expect(() => again(ok)).not.toThrow();
    expect(() => again(wrong)).toThrow(HostError);
  });

  it('tells two schemas with different contents apart', () => {
    const summary = createOutputCheck(tool('shape-a', 'summary'));
    const picked = createOutputCheck(tool('shape-b', 'picked'));
    expect(() => summary(ok)).not.toThrow();
    expect(() => picked(ok)).toThrow(/does not match/);
  });

  it('names the tool when its schema does not compile', () => {
    const broken = { ...tool('broken'), outputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } };
    expect(() => createOutputCheck(broken as Tool)).toThrow(/summarize_repo: its outputSchema does not compile/);
  });
});

describe("the server's patterns", () => {
  const patterned = (pattern: string): Tool => ({
    name: 'summarize_repo',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { s: { type: 'string', pattern } }, required: ['s'] },
  });

  // Backtracking would take minutes on 40 characters: the test's timeout is the guard.
  it('runs a catastrophic pattern in linear time', { timeout: 10_000 }, () => {
    const check = createOutputCheck(patterned('^(a|a)+$'));
    expect(() => check({ content: [], structuredContent: { s: `${'a'.repeat(40)}!` } })).toThrow(
      /does not match its outputSchema/,
    );
    expect(() => check({ content: [], structuredContent: { s: 'a'.repeat(40) } })).not.toThrow();
  });

  it('searches, unanchored, as JSON Schema says', () => {
    const check = createOutputCheck(patterned('b+'));
    expect(() => check({ content: [], structuredContent: { s: 'abbbc' } })).not.toThrow();
    expect(() => check({ content: [], structuredContent: { s: 'ac' } })).toThrow(HostError);
  });

  it('reports a pattern the linear engine cannot take instead of running it', () => {
    for (const pattern of ['^(a+)\\1$', '^(?=a)a$', '(?<!b)a']) {
      expect(() => createOutputCheck(patterned(pattern))).toThrow(/outputSchema does not compile: .*linear time/);
    }
  });

  it('runs patternProperties on the same engine', { timeout: 10_000 }, () => {
    const tool: Tool = {
      name: 'summarize_repo',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', patternProperties: { '^(a|a)+$': { type: 'number' } } },
    };
    const check = createOutputCheck(tool);
    expect(() => check({ content: [], structuredContent: { [`${'a'.repeat(40)}!`]: 'x' } })).not.toThrow();
    expect(() => check({ content: [], structuredContent: { aaaa: 'x' } })).toThrow(HostError);
  });
});
