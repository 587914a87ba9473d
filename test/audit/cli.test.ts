/** `plan` and `audit` usage errors, in-process through `main`: one line on stderr, exit 2, nothing on stdout. */
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';

import { main } from '../../src/cli/main.js';

let out: MockInstance;
let err: MockInstance;
let write: MockInstance;
beforeEach(() => {
  out = vi.spyOn(console, 'log').mockImplementation(() => {});
  err = vi.spyOn(console, 'error').mockImplementation(() => {});
  write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('usage errors', () => {
  it.each([
    [['audit'], 'audit: pass exactly one of --stdio "COMMAND" or --url URL'],
    [['audit', '--stdio', 'x', '--url', 'http://h/mcp'], 'audit: pass exactly one of'],
    [['audit', '--url', 'http://h/mcp', '--args', '{}'], 'audit: --args and --answers need --tool NAME'],
    [['audit', '--url', 'ftp://h/mcp'], "audit: --url must be an http(s) URL, got 'ftp://h/mcp'"],
    [['audit', '--url', 'http://h/mcp', '--tool', 't', '--args', '[1]'], '--args must be a JSON object'],
    [['audit', '--stdio', 'x', '--header', 'A: b'], 'audit: --header applies to --url only'],
    [['audit', '--url', 'http://h/mcp', '--timeout', '5'], '--timeout must be an integer from 100 to 600000'],
    [['audit', '--stdio', "node 'open"], "--stdio: unterminated ' quote in the command"],
    [['plan'], 'plan: expects one workflow FILE, and/or --from-audit REPORT.json'],
    [['plan', 'a.yaml', 'b.yaml'], 'plan: expects one workflow FILE'],
    [['plan', '--schema', 'a.yaml'], 'plan: --schema takes no other argument'],
    [['plan', '--bogus'], "plan: Unknown option '--bogus'"],
  ])('%j', async (argv, message) => {
    expect(await main(argv)).toBe(2);
    expect(String(err.mock.calls[0]?.[0])).toContain(message);
    expect(out).not.toHaveBeenCalled();
    expect(write).not.toHaveBeenCalled();
  });

  it('plan --from-audit rejects a report that is not one, naming the field', async () => {
    expect(await main(['plan', '--from-audit', 'package.json'])).toBe(2);
    expect(String(err.mock.calls[0]?.[0])).toMatch(/package\.json is not an audit --json report:\n {2}format: /);
    expect(write).not.toHaveBeenCalled();
  });

  it('audit reports arguments the tool rejects as a usage problem naming --args, not as failed rules', async () => {
    const stub = fileURLToPath(new URL('./stubStdio.ts', import.meta.url));
    const command = `'${process.execPath}' --import tsx '${stub}' enum_argument`;
    const audit = (...extra: string[]) =>
      main(['audit', '--stdio', command, '--tool', 'echo_upper', '--no-interop', '--timeout', '20000', ...extra]);
    expect(await audit('--args', '{"text":"nope"}')).toBe(2);
    expect(err).toHaveBeenCalledTimes(1);
    expect(String(err.mock.calls[0]?.[0])).toBe(
      'mcp-model-input: audit: --args: echo_upper rejects the arguments {"text":"nope"}: ' +
        '-32602 "text must be hello or world"; pass --args the tool accepts',
    );
    expect(write).not.toHaveBeenCalled();
    expect(await audit()).toBe(2);
    expect(String(err.mock.calls[1]?.[0])).toContain('audit: no --args (so {}): echo_upper rejects the arguments {}');
  });

  it('audit --answers must be a readable regular file', async () => {
    expect(await main(['audit', '--url', 'http://h/mcp', '--tool', 't', '--answers', '/'])).toBe(2);
    expect(String(err.mock.calls[0]?.[0])).toBe('mcp-model-input: --answers: / is a directory, not a file');
  });

  it('prints help for both commands', async () => {
    expect(await main(['plan', '--help'])).toBe(0);
    expect(await main(['audit', '--help'])).toBe(0);
    expect(String(out.mock.calls[0]?.[0])).toMatch(/^Usage: mcp-model-input plan FILE/);
    expect(String(out.mock.calls[1]?.[0])).toMatch(/^Usage: mcp-model-input audit/);
  });
});
