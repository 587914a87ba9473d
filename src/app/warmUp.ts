/**
 * What a server's first `summarize_repo` call would otherwise load, build and run for the first time, done once the
 * server has answered its first message (a stdio server) or request (HTTP), so that start-up is never delayed and
 * the first call finds it ready: the tokenizer (on its own thread), the flow, its engine and the repository reader,
 * linguist's language index and the secret scanner; then, given the served root (a server has exactly one), the
 * survey its first call begins with, made into the process's survey cache (flows/summarizeRepo/run.ts,
 * `warmServedSurvey`: bounded by the cache's caps, made twice only for a quick tree); last, one whole
 * `summarize_repo` call with the built-in model through a stdio front of its own, so that every code path the call
 * takes has run (compiled, its caches filled) — on the served root when its survey is kept, {@link
 * SERVED_WARM_UP_CALLS} times (its own server and key ring; it reads what a call would read, keeps nothing but what
 * the survey cache keeps anyway, and answers no one), otherwise once (no served root, or a tree too large to survey twice) on a small synthetic tree in a fresh
 * temporary directory, removed after it.
 *
 * One step per event-loop turn, so a request arriving meanwhile waits for one step at most. When a tool call arrives
 * (`signal` aborts — the server aborts it then), what the call will not use is given up: the warm-up's own call (its
 * front closed, a synthetic tree removed) and a first survey of the served root (the call surveys afresh); what it
 * will use goes on, for the call to join: the loading steps (an import under way is shared by every importer), and a
 * second survey of the served root (the survey cache lets a call join a survey under way on a watched tree). The
 * warm-up's call is also given up after {@link SYNTHETIC_CALL_TIMEOUT_MS}. Nothing here changes an answer: each step
 * fills the same per-process cache the call would fill itself. A failed step is left for the call to meet (and
 * report) as it would have without the warm-up.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';

import type { SummarizeRepoToolOptions } from '../flows/summarizeRepo/run.js';
import { MODERN_REVISION } from '../protocol/revisions.js';
import { startTokenizerThread } from '../repo/tokens.js';

/** The synthetic call is given up after this long (a loaded machine): the warm-up is bounded in time. */
export const SYNTHETIC_CALL_TIMEOUT_MS = 10_000;
/**
 * The warm-up's calls on the served root: a function run once still runs slower the next time than once it has run a
 * few times (V8 compiles it further as it runs), and after the first call the next ones cost what a warm call costs.
 */
export const SERVED_WARM_UP_CALLS = 3;
/** Where the synthetic tree is made (under the OS temporary directory); tests look for leftovers by this prefix. */
export const WARM_UP_DIR_PREFIX = 'mcp-model-input-warm-up-';

/** A tree with what the flow looks at: a README, a manifest with an entry point and scripts, code, docs. */
const SYNTHETIC_TREE: Readonly<Record<string, string>> = {
  'README.md': '# warm-up\n\nA small synthetic project.\n\n## Usage\n\n```sh\nnpm start\n```\n',
  'package.json': `${JSON.stringify({ name: 'warm-up', version: '0.0.0', type: 'module', main: 'src/index.js', scripts: { start: 'node src/index.js', test: 'node --test' } }, null, 2)}\n`,
  'src/index.js': "import { greet } from './greet.js';\n\nexport const message = greet('world');\n",
  'src/greet.js': 'export function greet(name) {\n  return `hello, ${name}`;\n}\n',
  'test/greet.test.js': "import { greet } from '../src/greet.js';\n\ngreet('test');\n",
  'docs/guide.md': '# Guide\n\nRun `npm start`.\n',
};

async function writeSyntheticTree(root: string): Promise<void> {
  for (const [relative, text] of Object.entries(SYNTHETIC_TREE)) {
    const absolute = join(root, relative);
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, text);
  }
}

export type WarmUpCallOutcome = 'answered' | 'failed' | 'abandoned' | 'timed_out';

/**
 * One `summarize_repo` call with the built-in model, as a stdio client would make it: on `served` (through the
 * process's survey cache) when given, else on a synthetic tree. `answered` (a successful result), `failed` (any
 * other answer), `abandoned` (`signal` aborted first) or `timed_out`. A synthetic tree is removed in every case.
 */
export async function warmUpCall(
  signal: AbortSignal,
  timeoutMs = SYNTHETIC_CALL_TIMEOUT_MS,
  served?: ServedRoot,
): Promise<WarmUpCallOutcome> {
  if (signal.aborted) return 'abandoned';
  const [
    { createModelInputServer, serveModelInputStdio },
    { silentLogger },
    { parseModelSpec },
    { createEphemeralKeyRing },
  ] = await Promise.all([
    import('./modelInputServer.js'),
    import('../logger.js'),
    import('../models/sources.js'),
    import('../state/index.js'),
  ]);
  if (signal.aborted) return 'abandoned';
  const synthetic = served === undefined ? await mkdtemp(join(tmpdir(), WARM_UP_DIR_PREFIX)) : undefined;
  let handle: { close(): Promise<void> } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    if (synthetic !== undefined) await writeSyntheticTree(synthetic);
    if (signal.aborted) return 'abandoned';
    const server = createModelInputServer({
      models: parseModelSpec('builtin'),
      keyRing: createEphemeralKeyRing(),
      logger: silentLogger,
      defaultPrincipal: 'warm-up',
      legacy: false,
      ...(served === undefined
        ? { root: synthetic as string, surveyCache: false as const }
        : {
            root: served.root,
            ...(served.repository !== undefined && { repository: served.repository }),
            ...(served.budgets !== undefined && { budgets: served.budgets }),
          }),
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const outcome = new Promise<WarmUpCallOutcome>((resolve) => {
      let written = '';
      output.on('data', (chunk: Buffer) => {
        written += chunk.toString('utf8');
        const end = written.indexOf('\n');
        if (end < 0) return;
        const answer = JSON.parse(written.slice(0, end)) as { result?: { isError?: boolean; content?: unknown } };
        resolve(answer.result !== undefined && answer.result.isError !== true ? 'answered' : 'failed');
      });
      onAbort = () => resolve('abandoned');
      signal.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(() => resolve('timed_out'), timeoutMs);
      timer.unref();
    });
    handle = serveModelInputStdio(server, { logger: silentLogger, input, output });
    const params = {
      name: 'summarize_repo',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'warm-up', version: '0.0.0' },
      },
    };
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })}\n`);
    return await outcome;
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    await handle?.close().catch(() => undefined);
    if (synthetic !== undefined)
      await rm(synthetic, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

/** The served root, as the server's `summarize_repo` tool reads it: its survey is made ahead of the first call. */
export type ServedRoot = Pick<SummarizeRepoToolOptions, 'root' | 'repository' | 'budgets'>;

/** What the steps tell the next ones: whether the served root's survey is now kept. */
interface Progress {
  servedKept: boolean;
}

type Step = (signal: AbortSignal, served: ServedRoot | undefined, progress: Progress) => Promise<unknown>;

const STEPS: readonly Step[] = [
  async () => startTokenizerThread(),
  () => import('./summarizeRepoRun.js'),
  async () => (await import('../repo/facts/languageData.js')).loadLanguageIndex(),
  async () => (await import('../repo/secrets/scanner.js')).scanText('warm-up: no secret here'),
  async (signal, served, progress) => {
    if (served === undefined) return;
    progress.servedKept = await (await import('../flows/summarizeRepo/run.js')).warmServedSurvey(served, signal);
  },
  async (signal, served, progress) => {
    const target = progress.servedKept ? served : undefined;
    for (let call = 0; call < (target === undefined ? 1 : SERVED_WARM_UP_CALLS); call++) {
      if ((await warmUpCall(signal, SYNTHETIC_CALL_TIMEOUT_MS, target)) !== 'answered') return;
      await nextTurn();
    }
  },
];

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let started: Promise<void> | undefined;

/**
 * Starts the warm-up (once per process); the promise settles when every step has run, and never rejects. Once
 * `signal` aborts, the warm-up's call and a first survey of the served root are given up (or never begun); the
 * loading steps and a second survey of the served root run regardless (each is what the first call would do itself,
 * and the call joins them).
 */
export function warmUpServer(signal: AbortSignal = new AbortController().signal, served?: ServedRoot): Promise<void> {
  started ??= (async () => {
    const progress: Progress = { servedKept: false };
    for (const step of STEPS) {
      await nextTurn();
      await step(signal, served, progress).catch(() => undefined);
    }
  })();
  return started;
}
