/** What the built-in model takes from a README: titles that can name the project and the first real sentence. */
import { describe, expect, it } from 'vitest';

import { looksLikeName } from '../../../../src/flows/summarizeRepo/builtin/fileBlocks.js';
import {
  describingSentence,
  firstSentence,
  readmeFacts,
} from '../../../../src/flows/summarizeRepo/builtin/readmeFacts.js';

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

  it('skips badges, images, a tagline in another script, directions and fine print to the sentence about the project', () => {
    const readme = [
      '![logo](logo.png)',
      '',
      '[![CI](https://ci.example/badge.svg)](https://ci.example) [![npm](https://x/y.svg)](https://x)',
      '',
      '一个快速、高效的 HTTP 客户端库，适用于各种应用。',
      '',
      'See the project website for documentation and APIs.',
      '',
      'Vitest requires Vite >=v6 and Node >=v20.',
      '',
      'HTTP is the way modern applications network.',
      '',
      'FastHttp is an HTTP client that is efficient by default.',
      '',
      'MIT License © 2021-Present Acme Inc.',
    ].join('\n');
    const facts = readmeFacts(readme);
    expect(facts.statements).toEqual([
      'HTTP is the way modern applications network.',
      'FastHttp is an HTTP client that is efficient by default.',
    ]);
    expect(facts.sentence).toBe('HTTP is the way modern applications network.');
    expect(describingSentence(facts, ['FastHttp'])).toBe('FastHttp is an HTTP client that is efficient by default.');
    expect(describingSentence(facts, ['other'])).toBe('HTTP is the way modern applications network.');
  });

  it('reads prose in an HTML paragraph only when the Markdown has none, never a sponsor’s slogan or small print', () => {
    const readme = [
      '<p align="center">',
      '<a href="https://kotlinlang.org/">Kotlin</a> linter in spirit of <a href="https://x">standard</a> and gofmt',
      '</p>',
      '',
      '<div align="center">',
      '  <a href="https://sponsor.example"><b>Fast remote container builds and runners.</b></a>',
      '  <sup>Fast remote container builds and runners for everyone.</sup>',
      '</div>',
      '',
      '## Quick start',
      '',
      '* Step 1: install it',
      '  All files with extension `.kt` below the current directory will be scanned.',
      '',
      'This project is not affiliated with nor endorsed by JetBrains.',
    ].join('\n');
    expect(readmeFacts(readme).sentence).toBe('Kotlin linter in spirit of standard and gofmt');
    const sponsorOnly = readme.split('\n').slice(4).join('\n');
    expect(readmeFacts(sponsorOnly).sentence).toBeUndefined();
    expect(readmeFacts(`${readme}\n\nKtool formats and lints Kotlin code.\n`).sentence).toBe(
      'Ktool formats and lints Kotlin code.',
    );
  });

  it('finds no purpose in a README of directions only (the summary then says the purpose is unknown)', () => {
    const facts = readmeFacts(
      '# acme/core\n\nPlease follow the documentation at acme.dev!\n\nFor questions and support please use the forum.\n',
    );
    expect(facts.sentence).toBeUndefined();
    expect(facts.statements).toEqual([]);
  });

  it('never takes a badge service’s image for the logo, whatever its alt text', () => {
    const readme = [
      '<p align="center">',
      '<a href="https://jitpack.io/#x/y"><img src="https://jitpack.io/v/x/y.svg" alt="JitPack"></a>',
      '<a href="https://x"><img src="https://img.shields.io/badge/Java-11+-blue" alt="Java 11+"></a>',
      '</p>',
      '',
      'Tool is a decompiler for Android packages.',
    ].join('\n');
    expect(readmeFacts(readme).titles).toEqual([]);
    expect(readmeFacts('<img src="media/logo.svg" alt="Tool logo">\n\nTool decompiles things well.\n').titles).toEqual([
      'Tool',
    ]);
  });
});
