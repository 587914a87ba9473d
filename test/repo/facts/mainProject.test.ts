/** Which member of a multi-project tree carries the project: by the root's names, then by the root README. */
import { describe, expect, it } from 'vitest';

import { memberKey, memberRank, wordCounts } from '../../../src/repo/facts/mainProject.js';

describe('the main member of a workspace', () => {
  it('ranks the member named like the root first, then the root name plus a CLI or app word, helpers last', () => {
    const hints = { rootNames: ['ktlint-root'] };
    expect(memberRank('ktlint', hints)).toBe(0);
    expect(memberRank('ktlint-cli', hints)).toBe(1);
    expect(memberRank('ktlint-ruleset-standard', hints)).toBe(3);
    expect(memberRank('create-ktlint-app', hints)).toBe(9);
    expect(memberRank('@vitejs/vite', { rootNames: ['@vitejs/vite-monorepo'] })).toBe(0);
    expect(memberRank('vitest', { rootNames: ['@vitest/monorepo'] })).toBe(0);
  });

  it('ranks by the root README’s mentions when the root names nothing, counting whole words only', () => {
    const readme = wordCounts(
      '# org/core [![npm](https://img.shields.io/npm/v/vue.svg)](https://npmjs.com/package/vue)\nvue-compat',
    );
    const hints = { rootNames: [], readme };
    expect(readme.get('vue')).toBe(2);
    expect(memberRank('vue', hints)).toBeLessThan(3);
    expect(memberRank('vue', hints)).toBeLessThan(memberRank('vue-compat', hints));
    expect(memberRank('compiler-core', hints)).toBe(3);
  });

  it('knows a member before its manifest is read by its directory', () => {
    expect(memberKey('packages/vue/package.json')).toBe('vue');
    expect(memberKey('src/kiota/kiota.csproj')).toBe('kiota');
  });
});
