/**
 * `plan --from-source DIR`: the planner's workflow inferred from a server's code — tools, their sampling steps,
 * tools in sampling, the loop around a sample — and the plan in its usual formats with its verdict.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Plan } from '../../src/plan/types.js';
import { runCli } from '../helpers/cliIo.js';
import { HAND_BUILT_MRTR, TOOL_LOOP, V1_ONE_TOOL, V1_SEQUENCE_AND_LOOP, type FileMap } from './servers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function layOut(files: FileMap): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mmi-plan-source-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('plan --from-source', () => {
  it('plans one tool as the usual plan object: its input, steps, budgets, preferences and serverInfo', async () => {
    const dir = await layOut(V1_ONE_TOOL);
    const run = await runCli(['plan', '--from-source', dir, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout) as Plan;
    expect(plan.format).toBe('mcp-model-input/plan@1');
    expect(plan.tool).toBe('draft_release_note');
    expect(plan.verdict).toBe('direct inference');
    const listed = (plan.discovery.toolsList.tools as Array<Record<string, unknown>>)[0];
    expect(listed?.title).toBe('Draft a release note');
    expect(listed?.inputSchema).toEqual({
      type: 'object',
      properties: {
        changes: { type: 'array', items: { type: 'string' }, description: 'one line per merged change' },
        audience: { type: 'string' },
      },
      required: ['changes'],
    });
    expect(JSON.stringify(plan.discovery.discover)).toContain('"name":"release-notes","version":"1.2.0"');
    expect(plan.rounds.rows.map((row) => [row.inputKey, row.budget.maxTokens])).toEqual([['note', 300]]);
    expect(plan.rounds.notes.some((note) => note.includes('states no product requirement'))).toBe(true);
  });

  it('keeps live sampling out of 2026-07-28: the existing design is a hard reject', async () => {
    const dir = await layOut(V1_ONE_TOOL);
    const plan = JSON.parse((await runCli(['plan', '--from-source', dir, '--json'])).stdout) as Plan;
    expect(plan.findings.hardRejects.map((finding) => finding.id)).toContain('live_sampling_on_2026');
  });

  it('plans every sampling tool: Markdown one after another, JSON an array; --tool picks one', async () => {
    const dir = await layOut(V1_SEQUENCE_AND_LOOP);
    const markdown = await runCli(['plan', '--from-source', dir]);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout.match(/^# Plan for /gm)).toHaveLength(2);
    expect(markdown.stdout).toContain('# Plan for `review_diff`');
    expect(markdown.stdout).toContain('\n---\n\n# Plan for `refine_title`');
    const plans = JSON.parse((await runCli(['plan', '--from-source', dir, '--json'])).stdout) as Plan[];
    expect(plans.map((plan) => plan.tool)).toEqual(['review_diff', 'refine_title']);
    expect(plans[0]?.rounds.rows.map((row) => row.inputKey)).toEqual(['risks', 'verdict']);
    const one = JSON.parse(
      (await runCli(['plan', '--from-source', dir, '--tool', 'refine_title', '--json'])).stdout,
    ) as Plan;
    expect(one.tool).toBe('refine_title');
    expect(one.rounds.notes).toContain(
      '`better` (server.ts:42) sits in a for loop (line 41): one round per iteration, at most 3.',
    );
  });

  it('reads tools in sampling inside a bounded loop as a tool loop with the tools named and the bound', async () => {
    const dir = await layOut(TOOL_LOOP);
    const plan = JSON.parse((await runCli(['plan', '--from-source', dir, '--json'])).stdout) as Plan;
    const [row] = plan.rounds.rows;
    expect(row?.inputKey).toBe('triage_issue');
    expect(row?.toolLoop).toMatchObject({ tools: ['search_issues', 'read_file'], maxRounds: 6, maxCalls: 5 });
    expect(plan.rounds.notes.join('\n')).toContain('the for loop at line 20 runs the tool loop, bounded by 6 rounds');
  });

  it('plans a hand-built MRTR state machine as an existing MRTR design', async () => {
    const dir = await layOut(HAND_BUILT_MRTR);
    const plan = JSON.parse((await runCli(['plan', '--from-source', dir, '--json'])).stdout) as Plan;
    expect(plan.tool).toBe('ask');
    expect(plan.findings.hardRejects.map((finding) => finding.id)).not.toContain('live_sampling_on_2026');
  });

  it('exits 2 when no tool asks for sampling, or the named tool is not one, and refuses mixed inputs', async () => {
    const dir = await layOut({ 'index.ts': 'export const nothing = 1;\n' });
    const none = await runCli(['plan', '--from-source', dir]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no tool under');
    const loops = await layOut(V1_SEQUENCE_AND_LOOP);
    const unknown = await runCli(['plan', '--from-source', loops, '--tool', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('(found: review_diff, refine_title)');
    expect((await runCli(['plan', 'workflow.yaml', '--from-source', loops])).code).toBe(2);
    expect((await runCli(['plan', 'workflow.yaml', '--tool', 'x'])).code).toBe(2);
  });
});
