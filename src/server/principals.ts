/**
 * Who is calling. Over HTTP: a bearer token mapped through a tokens file; without one,
 * `anonymous`. On stdio: the local OS user. Principals bind the sealed request state.
 */
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';

import { ModelInputError } from '../errors.js';

export const ANONYMOUS = 'anonymous';

/** Reads `{"<token>": "<principal>"}`. Errors name the file, never a token. */
export async function loadTokensFile(path: string): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ModelInputError('config_invalid', `cannot read tokens file ${path}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ModelInputError('config_invalid', `tokens file ${path} is not JSON`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ModelInputError('config_invalid', `tokens file ${path} must be an object {"<token>": "<principal>"}`);
  }
  const tokens = new Map<string, string>();
  for (const [index, [token, principal]] of Object.entries(value).entries()) {
    if (token.length < 16 || typeof principal !== 'string' || principal.length === 0) {
      throw new ModelInputError(
        'config_invalid',
        `tokens file ${path}: entry ${index + 1} needs a token of at least 16 characters and a non-empty principal`,
      );
    }
    tokens.set(token, principal);
  }
  if (tokens.size === 0) throw new ModelInputError('config_invalid', `tokens file ${path} has no tokens`);
  return tokens;
}

export function localPrincipal(): string {
  try {
    return `local:${userInfo().username}`;
  } catch {
    return `local:uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

export function principalFromAuthInfo(
  authInfo: { extra?: Record<string, unknown> } | undefined,
  fallback: string,
): string {
  const principal = authInfo?.extra?.['principal'];
  return typeof principal === 'string' && principal.length > 0 ? principal : fallback;
}
