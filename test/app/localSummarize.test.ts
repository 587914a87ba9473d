/**
 * The main job's two paths: the tool run directly (a server-owned model plan, no trace) and the same call through
 * the official client and the server's stdio front (host steps, a trace, or `overMcp`). They must give the same
 * result, and the choice between them must follow the model plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { needsProtocol, runLocalSummarize } from '../../src/app/localSummarize.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';

let repo: FixtureRepo & { outside: FixtureRepo };
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.outside.cleanup();
  await repo.cleanup();
});

describe('which path the main job takes', () => {
  it('runs directly when every step has a server-owned model and nothing is traced', () => {
    expect(needsProtocol({})).toBe(false);
    expect(needsProtocol({ models: parseModelSpec('builtin') })).toBe(false);
    expect(needsProtocol({ models: parseModelSpec('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: 'k' } }) })).toBe(
      false,
    );
    expect(needsProtocol({ models: parseModelSpec('pick=builtin,summary=builtin') })).toBe(false);
  });

  it('goes through the protocol when the host serves a step, a trace is asked for, or the caller says so', () => {
    expect(needsProtocol({ models: parseModelSpec('host') })).toBe(true);
    expect(needsProtocol({ models: parseModelSpec('host,builtin') })).toBe(true);
    expect(needsProtocol({ models: parseModelSpec('pick=builtin,summary=host') })).toBe(true);
    expect(needsProtocol({ trace: () => {} })).toBe(true);
    expect(needsProtocol({ overMcp: true })).toBe(true);
  });
});

describe('the direct path and the protocol path give the same result', () => {
  for (const args of [
    { maxFiles: 3 },
    { maxFiles: 2, audience: 'executive', path: 'src' },
    { mode: 'explore' as const },
  ]) {
    it(`for ${JSON.stringify(args)}`, async () => {
      const direct = await runLocalSummarize({ root: repo.root, args, logger: silentLogger });
      const traced: string[] = [];
      const overMcp = await runLocalSummarize({
        root: repo.root,
        args,
        logger: silentLogger,
        trace: (line) => traced.push(line),
      });
      expect(direct.isError).not.toBe(true);
      expect((direct.structuredContent as { picked: string[] }).picked.length).toBeGreaterThan(0);
      // The server's identity is what the wire adds (the SDK puts it in every result's `_meta`); the rest is the same.
      const { _meta: wireMeta, ...overMcpResult } = overMcp;
      expect(Object.keys(wireMeta ?? {})).toEqual(['io.modelcontextprotocol/serverInfo']);
      expect(direct).toEqual(overMcpResult);
      // The traced run really went over the wire: the tools/call request and its result are in the trace.
      expect(traced.some((line) => line.includes('tools/call'))).toBe(true);
    });
  }

  it('leaves the token counts out, and nothing else, when the caller shows none (fileTokens: false)', async () => {
    const args = { maxFiles: 3 };
    const counted = await runLocalSummarize({ root: repo.root, args, logger: silentLogger });
    const uncounted = await runLocalSummarize({ root: repo.root, args, logger: silentLogger, fileTokens: false });
    type Files = { files: Array<{ tokens?: number }> };
    const countedFiles = (counted.structuredContent as Files).files;
    expect(countedFiles.every((file) => typeof file.tokens === 'number')).toBe(true);
    const withoutCounts = {
      ...counted,
      structuredContent: {
        ...(counted.structuredContent as Files),
        files: countedFiles.map(({ tokens: _tokens, ...file }) => file),
      },
    };
    expect(uncounted).toEqual(withoutCounts);
    // Through the protocol a run counts, as any server does.
    const { _meta: _wire, ...overMcp } = await runLocalSummarize({
      root: repo.root,
      args,
      logger: silentLogger,
      fileTokens: false,
      overMcp: true,
    });
    expect(overMcp).toEqual(counted);
  });

  it('answers a path outside the root with the same isError result on both paths, reading nothing', async () => {
    const args = { path: '../..' };
    const direct = await runLocalSummarize({ root: repo.root, args, logger: silentLogger });
    const { _meta: _wire, ...overMcp } = await runLocalSummarize({
      root: repo.root,
      args,
      logger: silentLogger,
      overMcp: true,
    });
    expect(direct.isError).toBe(true);
    expect(JSON.stringify(direct.content)).toContain('is not a directory inside the repository root');
    expect(direct).toEqual(overMcp);
  });

  it('refuses bad arguments with the same -32602 message on both paths', async () => {
    const args = { audience: 'x'.repeat(201) };
    const direct = runLocalSummarize({ root: repo.root, args, logger: silentLogger });
    const overMcp = runLocalSummarize({ root: repo.root, args, logger: silentLogger, overMcp: true });
    const message = /^Invalid arguments for summarize_repo: audience: Too big/;
    await expect(direct).rejects.toThrow(message);
    await expect(overMcp).rejects.toThrow(message);
    await expect(direct).rejects.toMatchObject({ code: -32602 });
    await expect(overMcp).rejects.toMatchObject({ code: -32602 });
  });
});
