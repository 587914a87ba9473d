import { describe, expect, it } from 'vitest';

import { buildLanguageIndex, languageOfPath, loadLanguageIndex } from '../../../src/repo/facts/index.js';
import { isDocumentationPath, isGeneratedPath, isVendoredPath, pathKindOf } from '../../../src/repo/facts/index.js';

describe('language data (linguist-languages)', () => {
  it('knows extensions, exact file names and groups', async () => {
    const index = await loadLanguageIndex();
    const name = (path: string): string | undefined => languageOfPath(index, path)?.name;
    expect(name('src/app.ts')).toBe('TypeScript');
    expect(name('src/App.tsx')).toBe('TypeScript');
    expect(name('lib/x.RB')).toBe('Ruby');
    expect(name('Makefile')).toBe('Makefile');
    expect(name('Dockerfile')).toBe('Dockerfile');
    expect(name('README.md')).toBe('Markdown');
    expect(name('script.pl')).toBe('Perl');
    expect(languageOfPath(index, 'data.json')?.type).toBe('data');
    expect(name('LICENSE-unknown-ext.zzz')).toBeUndefined();
  });

  it('settles a shared extension: primary and widely used, then primary, then widely used; a tie stays unknown', () => {
    const index = buildLanguageIndex([
      { name: 'Perl', type: 'programming', extensions: ['.pl'] },
      { name: 'Prolog', type: 'programming', extensions: ['.pl', '.pro'] },
      { name: 'Rare Two', type: 'programming', extensions: ['.x'] },
      { name: 'XML', type: 'data', extensions: ['.xml', '.x'] },
      { name: 'Rare Three', type: 'programming', extensions: ['.t'] },
      { name: 'Rare Four', type: 'data', extensions: ['.t'] },
      { name: 'Solo', type: 'programming', extensions: ['.solo'] },
    ]);
    expect(languageOfPath(index, 'a.pl')?.name).toBe('Perl');
    expect(languageOfPath(index, 'a.x')?.name).toBe('Rare Two');
    expect(languageOfPath(index, 'a.t')).toBeUndefined();
    expect(languageOfPath(index, 'a.solo')?.name).toBe('Solo');
  });

  it('tells vendored, generated and documentation paths apart', () => {
    expect(isVendoredPath('vendor/github.com/x/y.go')).toBe(true);
    expect(isVendoredPath('web/node_modules/a/index.js')).toBe(true);
    expect(isGeneratedPath('dist/index.js')).toBe(true);
    expect(isGeneratedPath('app.min.js')).toBe(true);
    expect(isGeneratedPath('package-lock.json')).toBe(true);
    expect(isGeneratedPath('api/v1/service.pb.go')).toBe(true);
    expect(isDocumentationPath('docs/intro.md')).toBe(true);
    expect(isDocumentationPath('examples/basic/main.go')).toBe(true);
    expect(isDocumentationPath('CHANGELOG.md')).toBe(true);
    expect(pathKindOf('.github/workflows/ci.yml')).toBe('config');
    expect(pathKindOf('src/main.rs')).toBe('code');
  });
});
