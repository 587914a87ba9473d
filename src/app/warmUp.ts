/**
 * What a server's first `summarize_repo` call would otherwise load and build, done once the server has answered its
 * first message (a stdio server) or request (HTTP), so that start-up is never delayed and the first call finds it
 * ready: the tokenizer (on its own thread), the flow, its engine and the repository reader, linguist's language index
 * and the secret scanner. One step per event-loop turn, so a request arriving meanwhile waits for one step at most.
 * Nothing here changes an answer: each step fills the same per-process cache the call would fill itself. A failed
 * step is left for the call to meet (and report) as it would have without the warm-up.
 */
import { startTokenizerThread } from '../repo/tokens.js';

const STEPS: ReadonlyArray<() => Promise<unknown>> = [
  async () => startTokenizerThread(),
  () => import('../flows/summarizeRepo/run.js'),
  async () => (await import('../repo/facts/languageData.js')).loadLanguageIndex(),
  async () => (await import('../repo/secrets/scanner.js')).scanText('warm-up: no secret here'),
];

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let started: Promise<void> | undefined;

/** Starts the warm-up (once per process); the promise settles when every step has run, and never rejects. */
export function warmUpServer(): Promise<void> {
  started ??= (async () => {
    for (const step of STEPS) {
      await nextTurn();
      await step().catch(() => undefined);
    }
  })();
  return started;
}
