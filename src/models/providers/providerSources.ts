/**
 * `openai:MODEL` and `anthropic:MODEL` (or `PROVIDER:CHEAP+STRONG`) as configured `CompletionModel`s.
 * Everything that can be wrong with the configuration — an unknown provider, a missing key, a base
 * URL that is not a URL — fails here, at start-up, with one line that names the variable but never
 * prints its value.
 */
import { ModelInputError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { CompletionModel } from '../modelSource.js';
import { createTieredModel } from '../preferences.js';
import type { AnthropicMessagesModelOptions } from './anthropicMessages.js';
import type { OpenAIChatModelOptions } from './openaiChat.js';
import { printable } from '../../protocol/sanitize.js';
import type { RetryPolicy } from './retry.js';

export const PROVIDERS = ['openai', 'anthropic'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface ProviderSettings {
  /** Where keys and base URLs come from (the process environment in the CLI). */
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** Per HTTP request. */
  timeoutMs: number;
  retry: RetryPolicy;
}

/** One line, whatever the operator typed: the message echoes parts of the spec. */
function configError(message: string): ModelInputError<'config_invalid'> {
  return new ModelInputError('config_invalid', printable(message));
}

function envValue(env: ProviderSettings['env'], name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function baseUrl(env: ProviderSettings['env'], name: string): string | undefined {
  const value = envValue(env, name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw configError(`${name} is not a URL (expected e.g. http://127.0.0.1:11434/v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw configError(`${name} must be an http(s) URL`);
  return value;
}

function isProvider(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/**
 * A provider's model whose adapter (and, through it, the provider's SDK) loads at its first completion: a server
 * configured with a provider answers `server/discover` without either. The configuration was checked already.
 * Both providers' adapters use tools natively (function calling, tool use).
 */
function lazyModel(name: string, load: () => Promise<CompletionModel>): CompletionModel {
  let loaded: Promise<CompletionModel> | undefined;
  const model = () => (loaded ??= load());
  return {
    name,
    usesTools: true,
    complete: async (request) => (await model()).complete(request),
    requestBytes: async (params) => {
      const adapter = await model();
      if (adapter.requestBytes === undefined) throw new Error(`${name} cannot measure a request`);
      return adapter.requestBytes(params);
    },
  };
}

function openAIChat(options: OpenAIChatModelOptions): CompletionModel {
  return lazyModel(`openai:${options.model}`, async () =>
    (await import('./openaiChat.js')).createOpenAIChatModel(options),
  );
}

function anthropicMessages(options: AnthropicMessagesModelOptions): CompletionModel {
  return lazyModel(`anthropic:${options.model}`, async () =>
    (await import('./anthropicMessages.js')).createAnthropicMessagesModel(options),
  );
}

function createOne(provider: ProviderName, model: string, settings: ProviderSettings, source: string): CompletionModel {
  const common = { model, timeoutMs: settings.timeoutMs, retry: settings.retry, logger: settings.logger };
  if (provider === 'openai') {
    const apiKey = envValue(settings.env, 'OPENAI_API_KEY');
    const baseURL = baseUrl(settings.env, 'OPENAI_BASE_URL');
    if (apiKey === undefined && baseURL === undefined) {
      throw configError(
        `${source} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a server that takes no key, such as Ollama)`,
      );
    }
    return openAIChat({
      ...common,
      ...(apiKey !== undefined && { apiKey }),
      ...(baseURL !== undefined && { baseURL }),
    });
  }
  const apiKey = envValue(settings.env, 'ANTHROPIC_API_KEY');
  if (apiKey === undefined) throw configError(`${source} needs ANTHROPIC_API_KEY in the environment`);
  const baseURL = baseUrl(settings.env, 'ANTHROPIC_BASE_URL');
  return anthropicMessages({ ...common, apiKey, ...(baseURL !== undefined && { baseURL }) });
}

/** `PROVIDER:MODEL` or `PROVIDER:CHEAP+STRONG`. Throws `ModelInputError('config_invalid')`. */
export function createProviderSource(source: string, settings: ProviderSettings): CompletionModel {
  const colon = source.indexOf(':');
  const provider = source.slice(0, colon);
  const models = source
    .slice(colon + 1)
    .split('+')
    .map((id) => id.trim());
  if (!isProvider(provider)) {
    throw configError(`unknown model provider '${provider}' in '${source}' (use openai:MODEL or anthropic:MODEL)`);
  }
  // Model ids end up in log lines and results: no whitespace, no control or format characters, bounded.
  if (models.length > 2 || models.some((id) => id === '' || /[\s\p{Cc}\p{Cf}]/u.test(id) || id.length > 200)) {
    throw configError(`bad model source '${source}': expected ${provider}:MODEL or ${provider}:CHEAP+STRONG`);
  }
  const [cheap, strong] = models as [string, string | undefined];
  if (strong === undefined) return createOne(provider, cheap, settings, source);
  return createTieredModel(source, {
    cheap: { id: cheap, model: createOne(provider, cheap, settings, source) },
    strong: { id: strong, model: createOne(provider, strong, settings, source) },
  });
}
