// @vitest-environment happy-dom
/**
 * Every ```mermaid block in README.md and docs/ parses, by Mermaid's own parser (`mermaid.parse`, the one GitHub's
 * renderer runs), and is one of the two kinds the docs use: a sequence diagram or a flowchart. Mermaid sanitizes
 * labels with DOMPurify, which needs a DOM: this file runs in happy-dom, no browser.
 */
import { describe, expect, it } from 'vitest';

import { fencedBlocks, markdownFiles, readDoc } from './markdown.js';

const blocks = markdownFiles()
  .flatMap((file) => fencedBlocks(file, readDoc(file)))
  .filter((block) => block.lang === 'mermaid');

async function parse(code: string): Promise<string> {
  const { default: mermaid } = await import('mermaid');
  return (await mermaid.parse(code)).diagramType;
}

describe('Mermaid diagrams in README.md and docs/', () => {
  it('the parser tells a diagram from a broken one', async () => {
    await expect(parse('sequenceDiagram\n  Host->>Server: tools/call\n')).resolves.toBe('sequence');
    await expect(parse('flowchart LR\n  A[Host] --> B(Server)\n')).resolves.toBe('flowchart-v2');
    await expect(parse('sequenceDiagram\n  Host->>: tools/call\n')).rejects.toThrow(/Parse error/);
    await expect(parse('flowchart LR\n  A[Host --> B(Server)\n')).rejects.toThrow(/Parse error/);
  });

  it.each(blocks.map((block) => [`${block.file}:${block.line}`, block.code] as const))(
    '%s parses as a sequence diagram or a flowchart',
    async (_where, code) => {
      expect(['sequence', 'flowchart-v2']).toContain(await parse(code));
    },
  );
});
