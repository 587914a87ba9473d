/**
 * The content block shapes the host accepts in sampling messages and sends back in answers: text,
 * image, audio, tool_use and tool_result (whose own content holds ordinary content blocks). Unknown
 * fields are dropped, so only what the host understands reaches a model or a server.
 */
import { z } from 'zod';

import { describeIssue } from './refusal.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const meta = z.record(z.string(), z.unknown()).optional();
const annotations = z
  .object({
    audience: z.array(z.enum(['user', 'assistant'])).optional(),
    priority: z.number().min(0).max(1).optional(),
    lastModified: z.string().optional(),
  })
  .optional();
const base64 = z.string().regex(BASE64, { error: 'must be base64' });

const text = z.object({ type: z.literal('text'), text: z.string(), annotations, _meta: meta });
const image = z.object({ type: z.literal('image'), data: base64, mimeType: z.string(), annotations, _meta: meta });
const audio = z.object({ type: z.literal('audio'), data: base64, mimeType: z.string(), annotations, _meta: meta });
const resourceLink = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
  annotations,
  _meta: meta,
});
const resourceContents = { uri: z.string(), mimeType: z.string().optional(), _meta: meta };
const embedded = z.object({
  type: z.literal('resource'),
  resource: z.union([
    z.object({ ...resourceContents, text: z.string() }),
    z.object({ ...resourceContents, blob: base64 }),
  ]),
  annotations,
  _meta: meta,
});
const toolContentBlock = z.discriminatedUnion('type', [text, image, audio, resourceLink, embedded], {
  error: 'must be a text, image, audio, resource_link or resource block',
});

const toolUse = z.object({
  type: z.literal('tool_use'),
  name: z.string(),
  id: z.string(),
  input: z.record(z.string(), z.unknown()),
  _meta: meta,
});
const toolResult = z.object({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.array(toolContentBlock),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
  _meta: meta,
});

/** One block of a sampling message or answer. */
export const samplingBlock = z.discriminatedUnion('type', [text, image, audio, toolUse, toolResult], {
  error: 'must be a text, image, audio, tool_use or tool_result block',
});

export type SamplingBlock = z.infer<typeof samplingBlock>;

/** The parsed blocks, in the shape they came (one block or an array), or a problem at `path`. */
export type ContentCheck = { ok: true; content: SamplingBlock | SamplingBlock[] } | { ok: false; problem: string };

/**
 * Checks `content` (one block or a non-empty array of blocks) and returns it with unknown fields
 * dropped; the problem names the path (`messages[0].content[1].text`) and what was expected.
 */
export function checkContent(content: unknown, path: string): ContentCheck {
  if (Array.isArray(content)) {
    if (content.length === 0) return { ok: false, problem: `${path} must not be empty` };
    const blocks: SamplingBlock[] = [];
    for (const [index, block] of content.entries()) {
      const parsed = samplingBlock.safeParse(block);
      if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error, `${path}[${index}]`) };
      blocks.push(parsed.data);
    }
    return { ok: true, content: blocks };
  }
  const parsed = samplingBlock.safeParse(content);
  return parsed.success
    ? { ok: true, content: parsed.data }
    : { ok: false, problem: describeIssue(parsed.error, path) };
}
