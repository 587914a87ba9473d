/**
 * Token estimates with a real tokenizer: `gpt-tokenizer`'s `o200k_base` (GPT-4o and later). Other model families
 * tokenize differently (typically within ±20% on code and English), so counts are estimates for budgeting, not
 * billing. The encoder (about 60 MB of ranks) is loaded on first use only, so listing never pays for it.
 */
type Tokenizer = {
  countTokens(text: string): number;
  encode(text: string): number[];
  decode(tokens: number[]): string;
};

let loading: Promise<Tokenizer> | undefined;

function tokenizer(): Promise<Tokenizer> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => ({
    countTokens: (text: string) => module.countTokens(text),
    encode: (text: string) => module.encode(text),
    decode: (tokens: number[]) => module.decode(tokens),
  }));
  return loading;
}

/** Estimated tokens of `text`. A token covers at least one UTF-8 byte, so the empty string is 0. */
export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  return (await tokenizer()).countTokens(text);
}

/** The length (in UTF-16 code units) of the longest common prefix of two strings. */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let index = 0;
  while (index < max && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/**
 * The longest prefix of `text` with at most `maxTokens` tokens, cut between characters (never inside a
 * surrogate pair), and its token count. Text that fits is returned whole. Texts with no more UTF-8 bytes than
 * `maxTokens` are never tokenized: they cannot exceed it.
 */
export async function cutToTokens(text: string, maxTokens: number): Promise<{ text: string; tokens: number }> {
  const limit = Math.max(0, Math.floor(maxTokens));
  if (Buffer.byteLength(text, 'utf8') <= limit) return { text, tokens: await countTokens(text) };
  const { encode, decode, countTokens: count } = await tokenizer();
  const tokens = encode(text);
  if (tokens.length <= limit) return { text, tokens: tokens.length };
  let end = commonPrefix(text, decode(tokens.slice(0, limit)));
  // Re-tokenizing a prefix can merge differently at its end: shrink (a bounded number of times) until it fits.
  for (let attempt = 0; attempt < 8; attempt++) {
    const last = text.charCodeAt(end - 1);
    if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
    const prefix = text.slice(0, end);
    const used = count(prefix);
    if (used <= limit || end === 0) return { text: prefix, tokens: used };
    end = Math.max(0, end - 4 * (used - limit));
  }
  return { text: '', tokens: 0 };
}
