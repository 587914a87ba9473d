import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { createStderrLogger } from '../src/logger.js';
import { escapeControls } from '../src/protocol/sanitize.js';
import { createTestFront } from './helpers/servers.js';
import { meta, mcpRequest } from './helpers/rawChannel.js';

function captured(now?: () => number) {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const logger = createStderrLogger({ stream, ...(now !== undefined && { throttle: { now } }) });
  return { logger, output: () => text };
}

describe('escapeControls', () => {
  it('shows control, separator and format characters as escapes, on one line', () => {
    expect(escapeControls('a\nb\r\tc\u001b[2J\u0007\u009b\u2028\u202e\u200b')).toBe(
      'a\\nb\\r\\tc\\x1b[2J\\x07\\x9b\\u2028\\u202e\\u200b',
    );
    expect(escapeControls('src\\main.ts')).toBe('src\\main.ts');
    expect(escapeControls('a\\n\n')).toBe('a\\\\n\\n');
    expect(escapeControls('x'.repeat(50), 10)).toBe(`${'x'.repeat(10)}…(+40 chars)`);
    expect(escapeControls('😀😀', 3)).toBe('😀…(+2 chars)');
  });
});

describe('the stderr logger and hostile peers', () => {
  it('writes a rejected request with a forged line and terminal escapes as one inert line', async () => {
    const { logger, output } = captured();
    const front = createTestFront({ root: process.cwd(), logger });
    const method = 'x\nmcp-model-input: serving /etc\u001b[2J\u001b]0;owned\u0007';
    const response = await front.fetch(
      mcpRequest(
        'http://localhost/mcp',
        { jsonrpc: '2.0', id: 1, method, params: { _meta: meta() } },
        {
          'mcp-method': 'other',
        },
      ),
    );
    expect(response.status).toBe(400);
    await front.close();
    const lines = output()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^mcp-model-input: warning: /);
    expect(output()).not.toContain('\u001b');
    expect(output()).not.toContain('\u0007');
    expect(output()).not.toMatch(/^mcp-model-input: serving/m);
    expect(output()).toContain('x\\nmcp-model-input: serving /etc\\x1b[2J');
  });

  it('throttles repeated warnings of one kind and counts what it left out', () => {
    let clock = 0;
    const { logger, output } = captured(() => clock);
    for (let index = 0; index < 100; index++) logger.warn(`rejected ${index}`, 'http_rejected');
    logger.warn('another kind', 'state_rejected');
    logger.warn('no kind is never throttled');
    expect(
      output()
        .split('\n')
        .filter((line) => line.includes('rejected ')),
    ).toHaveLength(5);
    expect(output()).toContain('another kind');
    clock += 60_000;
    logger.warn('rejected again', 'http_rejected');
    expect(output()).toContain("warning: rejected again (95 more 'http_rejected' warnings were not logged)");
  });

  it('throttles the warnings of many rejected requests over HTTP', async () => {
    const { logger, output } = captured(() => 0);
    const front = createTestFront({ root: process.cwd(), logger });
    for (let index = 0; index < 50; index++) {
      await front.fetch(
        mcpRequest(
          'http://localhost/mcp',
          { jsonrpc: '2.0', id: index, method: 'tools/list', params: { _meta: meta() } },
          {
            'mcp-method': 'wrong',
          },
        ),
      );
    }
    await front.close();
    expect(
      output()
        .split('\n')
        .filter((line) => line !== '').length,
    ).toBeLessThanOrEqual(5);
  });
});
