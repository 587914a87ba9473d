import { describe, expect, it } from 'vitest';

import { nameKey, shortProjectName } from '../../../src/repo/facts/names.js';

describe('project names from manifests', () => {
  it('shortens module paths, scopes, vendors and workspace-root suffixes', () => {
    expect(shortProjectName('github.com/zricethezav/gitleaks/v8')).toBe('gitleaks');
    expect(shortProjectName('@vitejs/vite-monorepo')).toBe('vite');
    expect(shortProjectName('gson-parent')).toBe('gson');
    expect(shortProjectName('Gson Parent')).toBe('Gson');
    expect(shortProjectName('guzzlehttp/guzzle')).toBe('guzzle');
    expect(shortProjectName('fd-find')).toBe('fd-find');
    expect(nameKey('JSON for Modern C++')).toBe('jsonformodernc++');
    expect(nameKey('{fmt}')).toBe('fmt');
  });
});
