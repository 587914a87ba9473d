/**
 * The `--approve` flag: how the host decides whether an embedded sampling round may run.
 * `prompt` asks the user in a terminal dialog, `auto` approves everything, `deny` refuses everything,
 * `rules:FILE` decides from a rules file (see docs/host.md).
 */
import { ModelInputError } from '../../errors.js';

export type ApprovalMode = { kind: 'prompt' } | { kind: 'auto' } | { kind: 'deny' } | { kind: 'rules'; file: string };

/** Parses the value of `--approve`; anything else is a `ModelInputError('usage')`. */
export function parseApprovalMode(value: string): ApprovalMode {
  if (value === 'prompt' || value === 'auto' || value === 'deny') return { kind: value };
  if (value.startsWith('rules:')) {
    const file = value.slice('rules:'.length);
    if (file.trim() === '') {
      throw new ModelInputError('usage', '--approve rules:FILE needs a file name after "rules:"');
    }
    return { kind: 'rules', file };
  }
  throw new ModelInputError(
    'usage',
    `--approve must be prompt, auto, deny or rules:FILE (got ${JSON.stringify(value.slice(0, 60))})`,
  );
}
