/** The three inputs that stalled the redactor (issue 26), for test/repo/secrets/linearity.test.ts and bench/redactCost.ts. */
import { fake } from './corpus.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** GitHub tokens joined by `-`, AWS key IDs joined by `.`, JWT-shaped text: `size` characters each. */
export function worstInputs(size: number): Record<string, string> {
  const joined = (count: number, make: (index: number) => string, by: string): string =>
    Array.from({ length: count }, (_, index) => make(index))
      .join(by)
      .slice(0, size);
  return {
    github_tokens_dash: joined(Math.ceil(size / 41), (i) => `ghp_${fake(`g${i % 97}`, 36, ALNUM)}`, '-'),
    aws_ids_dot: joined(Math.ceil(size / 21), (i) => `AKIA${fake(`a${i % 97}`, 16, UPPER32)}`, '.'),
    jwt_shaped: joined(
      Math.ceil(size / 60),
      (i) => `eyJ${fake(`h${i % 97}`, 20, ALNUM)}.eyJ${fake(`p${i % 97}`, 20, ALNUM)}.${fake(`s${i % 97}`, 10, ALNUM)}`,
      '.',
    ),
  };
}
