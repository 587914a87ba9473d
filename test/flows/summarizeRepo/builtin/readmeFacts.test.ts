/** What the built-in model takes from a README: titles that can name the project and the first real sentence. */
import { describe, expect, it } from 'vitest';

import { looksLikeName } from '../../../../src/flows/summarizeRepo/builtin/fileBlocks.js';
import { firstSentence, readmeFacts } from '../../../../src/flows/summarizeRepo/builtin/readmeFacts.js';

describe('README facts', () => {
  it('skips HTML blocks, badges, merchandise and sponsor calls to the first real sentence', () => {
    const readme = [
      '<div align="center">',
      '  <img src="logo.png" alt="tool - a fuzzy finder">',
      '  <a href="https://github.com/sponsors/me"><img src="https://img.shields.io/badge/x" alt="Sponsors"></a>',
      '</div>',
      '',
      '[![Build](https://ci.example/badge.svg)](https://ci.example) [![npm](https://x/y.svg)](https://x)',
      '',
      'Show your love -- T-shirts, mugs, and stickers now available!',
      '',
      'My open source work is supported by the community via GitHub Sponsors.',
      '',
      'tool is a general-purpose fuzzy finder, e.g. for files. It is fast.',
    ].join('\n');
    const facts = readmeFacts(readme);
    expect(facts.sentence).toBe('tool is a general-purpose fuzzy finder, e.g. for files.');
    expect(facts.titles).toEqual(['tool - a fuzzy finder']);
  });

  it('skips GitHub alerts, notes, announcements, link menus and link definitions', () => {
    const readme = [
      '🌍 *[Deutsch](README-de.md) ∙ [English](README.md) ∙ [Español](README-es.md)*',
      '',
      '# The Guide',
      '',
      '> [!WARNING]',
      '> This project is feature complete and takes no new features.',
      '',
      "*Note: I'm looking for a co-author to help with this guide.*",
      '',
      "We're excited to announce the release of Guide 2.0!",
      '',
      '[badge]: https://img.shields.io/x.svg',
      '',
      '> Fluency on the command line is a skill often neglected.',
    ].join('\n');
    const facts = readmeFacts(readme);
    expect(facts.titles).toEqual(['The Guide']);
    expect(facts.sentence).toBe('Fluency on the command line is a skill often neglected.');
  });

  it('lists every kind of title in order: # titles, an HTML h1, a logo alt text', () => {
    expect(readmeFacts('# Features\n\n# Usage\n\ntext of four words here.').titles).toEqual(['Features', 'Usage']);
    expect(readmeFacts('<h1 align="center">Widget</h1>\n\nWidget makes widgets for you.').titles).toEqual(['Widget']);
    expect(readmeFacts('![vite logo](logo.svg)\n\nVite builds front ends fast.').titles).toEqual(['vite']);
    expect(readmeFacts('Title\n=====\n\nBody text with enough words.').titles).toEqual(['Title']);
  });

  it('takes a title for a name only when it looks like one, never a section heading or a banner', () => {
    for (const name of ['fzf', 'Flask', 'JSON for Modern C++', 'The Art of Command Line', 'fzf - a fuzzy finder']) {
      expect(looksLikeName(name)).toBe(true);
    }
    const sections = ['Overview', 'Using Homebrew', 'Installation', 'Getting started', 'Table of Contents'];
    const more = ['Description', 'Summary', 'Prerequisites', 'Background', 'Setup', "What's new", 'Building'];
    for (const title of [...sections, ...more, 'Sponsored by Acme', 'A sentence that ends.']) {
      expect(looksLikeName(title)).toBe(false);
    }
  });

  it('takes one sentence, or two when the first is very short', () => {
    expect(firstSentence('Fast. Tiny HTTP client for browsers and Node. More here.')).toBe(
      'Fast. Tiny HTTP client for browsers and Node.',
    );
    expect(firstSentence('No punctuation at all in this line')).toBe('No punctuation at all in this line');
  });
});
