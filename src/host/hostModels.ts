/**
 * The host's models, from `--host-model SPEC`: a comma-separated list of `SOURCE[=TIER]`.
 *
 * SOURCE is `builtin` (the deterministic heuristic: no keys, no network), `scripted:FILE` (a JSON
 * file mapping input keys to answers — texts, or tool turns `{"toolUse":[…]}` — for tests and
 * demos), or a provider — `openai:MODEL`,
 * `anthropic:MODEL` — built by the same adapter module the server's own providers use. TIER
 * (`cheap`, `strong`, `balanced`; default `balanced`) gives the attributes the model policy weighs
 * against a request's priorities (docs/host.md); hints match the model ids.
 */
import { readFile } from 'node:fs/promises';

import { ModelInputError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { CompletionModel } from '../models/modelSource.js';
import { createProviderSource } from '../models/providers/providerSources.js';
import { DEFAULT_RETRY_POLICY } from '../models/providers/retry.js';
import { createScriptedModel, isScriptedAnswers, type ScriptedAnswers } from '../models/scripted.js';
import { DEFAULT_MODEL_TIMEOUT_MS } from '../models/sources.js';
import { printable } from '../protocol/sanitize.js';
import { TIER_ATTRIBUTES, type HostModelEntry } from './policies/modelPolicy.js';

export const DEFAULT_HOST_MODEL_SPEC = 'builtin';

export interface HostModelSpecOptions {
  /**
   * What `builtin` names: a deterministic model chosen by the composition (app/, the ./host surface) — the host
   * runtime knows no tool. Without it, `builtin` is a configuration error.
   */
  builtin?: CompletionModel;
  env?: Readonly<Record<string, string | undefined>>;
  logger?: Logger;
  timeoutMs?: number;
}

type Tier = keyof typeof TIER_ATTRIBUTES;
const SPEC_HELP = 'use builtin, scripted:FILE, openai:MODEL or anthropic:MODEL, each optionally =cheap|strong|balanced';

function configError(message: string): ModelInputError<'config_invalid'> {
  return new ModelInputError('config_invalid', printable(message));
}

async function loadScript(file: string): Promise<ScriptedAnswers> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw configError(
      `--host-model scripted:${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw configError(`--host-model scripted:${file}: not JSON`);
  }
  if (!isScriptedAnswers(parsed)) {
    throw configError(
      `--host-model scripted:${file}: expected an object of input key -> answer or [answers], an answer being a text or {"toolUse":[{"name":…,"input":{…}}]}`,
    );
  }
  return parsed;
}

/** Parses `--host-model`. Throws `ModelInputError('config_invalid')` with a one-line message. */
export async function parseHostModelSpec(spec: string, options: HostModelSpecOptions = {}): Promise<HostModelEntry[]> {
  const settings = {
    env: options.env ?? process.env,
    logger: options.logger ?? silentLogger,
    timeoutMs: options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
    retry: DEFAULT_RETRY_POLICY,
  };
  const items = spec
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) throw configError(`empty --host-model (${SPEC_HELP})`);
  const entries: HostModelEntry[] = [];
  for (const item of items) {
    const [source = '', tierName = 'balanced', ...rest] = item.split('=');
    if (rest.length > 0 || !Object.hasOwn(TIER_ATTRIBUTES, tierName)) {
      throw configError(`bad --host-model entry '${item}' (${SPEC_HELP})`);
    }
    const attributes = TIER_ATTRIBUTES[tierName as Tier];
    if (source === 'builtin') {
      if (options.builtin === undefined)
        throw configError(`--host-model builtin: no built-in model is configured here`);
      entries.push({ id: 'builtin', model: options.builtin, ...attributes });
    } else if (source.startsWith('scripted:')) {
      const file = source.slice('scripted:'.length);
      if (file === '') throw configError(`--host-model scripted: needs a FILE`);
      entries.push({ id: source, model: createScriptedModel(await loadScript(file)), ...attributes });
    } else if (source.includes(':')) {
      entries.push({ id: source, model: createProviderSource(source, settings), ...attributes });
    } else {
      throw configError(`unknown host model '${source}' (${SPEC_HELP})`);
    }
  }
  return entries;
}
