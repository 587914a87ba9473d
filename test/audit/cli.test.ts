/** `plan` and `audit` usage errors, in-process through `main`: one line on stderr, exit 2, nothing on stdout. */
import { fileURLToPath } from 'node:url';

import { beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../src/cli/main.js';
import { capturedIo, type CapturedIo } from '../helpers/cliIo.js';

let io: CapturedIo;
beforeEach(() => {
  io = capturedIo();
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
    expect(await main(argv, io)).toBe(2);
    expect(io.errLines()[0]).toContain(message);
    expect(io.out()).toBe('');
  });

  it('plan --from-audit rejects a report that is not one, naming the field', async () => {
    expect(await main(['plan', '--from-audit', 'package.json'], io)).toBe(2);
    expect(io.errLines()[0]).toMatch(/package\.json is not an audit --json report:\n {2}format: /);
    expect(io.out()).toBe('');
  });

  it('audit reports arguments the tool rejects as a usage problem naming --args, not as failed rules', async () => {
    const stub = fileURLToPath(new URL('./stubStdio.ts', import.meta.url));
    const command = `'${process.execPath}' --import tsx '${stub}' enum_argument`;
    const audit = (...extra: string[]) =>
      main(['audit', '--stdio', command, '--tool', 'echo_upper', '--no-interop', '--timeout', '20000', ...extra], io);
    expect(await audit('--args', '{"text":"nope"}')).toBe(2);
    expect(io.errLines()).toHaveLength(1);
    expect(io.errLines()[0]).toBe(
      'mcp-model-input: audit: --args: echo_upper rejects the arguments {"text":"nope"}: ' +
        '-32602 "text must be hello or world"; pass --args the tool accepts',
    );
    expect(io.out()).toBe('');
    expect(await audit()).toBe(2);
    expect(io.errLines()[1]).toContain('audit: no --args (so {}): echo_upper rejects the arguments {}');
  });

  it('audit --answers must be a readable regular file', async () => {
    expect(await main(['audit', '--url', 'http://h/mcp', '--tool', 't', '--answers', '/'], io)).toBe(2);
    expect(io.errLines()[0]).toBe('mcp-model-input: --answers: / is a directory, not a file');
  });

  it('prints help for both commands', async () => {
    expect(await main(['plan', '--help'], io)).toBe(0);
    expect(io.out()).toMatch(/^Usage: mcp-model-input plan FILE/);
    const audit = capturedIo();
    expect(await main(['audit', '--help'], audit)).toBe(0);
    expect(audit.out()).toMatch(/^Usage: mcp-model-input audit/);
  });
});
