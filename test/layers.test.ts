/**
 * The layer order of docs/architecture.md ("Layers") is enforced by `npm run deps`, which `npm test` runs: the
 * rules of `.dependency-cruiser.cjs` must keep failing a wrong import. A small tree in a temp dir, laid out like
 * src/ and examples/, holds one import of each kind the rules forbid, and a few that they allow;
 * dependency-cruiser checks it with the project's own rules.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { cruise, type IFlattenedRuleSet } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as IFlattenedRuleSet;

/** file -> the files it imports (type-only imports where marked), all under src/. */
const TREE: Record<string, string[]> = {
  // Allowed: imports that point down, and the legacy era's wiring.
  'src/server/factory.ts': ['src/flows/tool.ts'],
  'src/flows/tool.ts': ['src/protocol/revisions.ts'],
  'src/host/client.ts': ['src/flows/tool.ts', 'src/protocol/revisions.ts'],
  'src/app/modelInputServer.ts': ['src/legacy/index.ts', 'src/server/factory.ts', 'src/transports/http.ts'],
  'src/entries/server.ts': ['src/legacy/index.ts', 'src/app/modelInputServer.ts'],
  'src/legacy/index.ts': ['src/server/factory.ts'],
  'src/protocol/revisions.ts': [],
  'examples/server.ts': ['src/entries/server.ts'],
  'src/migrate/workflowFromSource.ts': ['src/plan/a.ts', 'src/protocol/revisions.ts'],
  'src/cli/migrate.ts': ['src/migrate/workflowFromSource.ts'],
  // Forbidden, one of each kind.
  'src/host/fromServer.ts': ['type:src/server/factory.ts'],
  'src/flows/fromServer.ts': ['src/server/factory.ts'],
  'src/repo/fromModels.ts': ['src/models/source.ts'],
  'src/models/source.ts': [],
  'src/transports/http.ts': ['src/legacy/index.ts'],
  'src/app/summarize.ts': ['src/legacy/index.ts'],
  'src/server/fromApp.ts': ['src/app/modelInputServer.ts'],
  'src/protocol/fromState.ts': ['src/state/codec.ts'],
  'src/state/codec.ts': [],
  'src/plan/a.ts': ['type:src/plan/b.ts'],
  'src/plan/b.ts': ['type:src/plan/a.ts'],
  'examples/internals.ts': ['src/flows/tool.ts'],
  'src/host/hostModels.ts': ['src/flows/summarizeRepo/builtin/model.ts'],
  'src/audit/scriptedHost.ts': ['src/flows/summarizeRepo/builtin/model.ts'],
  'src/flows/summarizeRepo/builtin/model.ts': [],
  'src/migrate/fromHost.ts': ['src/host/client.ts'],
  'src/plan/fromMigrate.ts': ['src/migrate/workflowFromSource.ts'],
  // Shipped tools: the public kit only, never the kit's insides nor another tool.
  'src/tools/askRepo/tool.ts': ['src/entries/tool.ts', 'src/tools/askRepo/prompts.ts'],
  'src/tools/askRepo/prompts.ts': [],
  'src/tools/reviewChanges/tool.ts': ['src/kit/index.ts', 'src/tools/askRepo/prompts.ts'],
  'src/entries/tool.ts': ['src/kit/index.ts'],
  'src/kit/index.ts': [],
};

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mmi-layers-'));
  for (const [file, imports] of Object.entries(TREE)) {
    const lines = imports.map((target, index) => {
      const typeOnly = target.startsWith('type:');
      const path = target.replace(/^type:/, '');
      const specifier = join(root, path).replace(/\.ts$/, '');
      return typeOnly
        ? `import type { T as T${index} } from '${specifier}';\nexport type U${index} = T${index};`
        : `import * as m${index} from '${specifier}';\nexport const v${index} = m${index};`;
    });
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), `${lines.join('\n')}\nexport type T = string;\n`);
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the dependency rules (npm run deps)', () => {
  it('fail each forbidden import and pass the allowed ones', async () => {
    const result = await cruise(
      ['src', 'examples'],
      { baseDir: root, validate: true, ruleSet: { forbidden: config.forbidden }, tsPreCompilationDeps: true },
      { extensions: ['.ts'] },
    );
    const output = result.output;
    if (typeof output === 'string') throw new Error('expected a cruise result object');
    const found = output.summary.violations.map(
      (violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`,
    );
    expect(found.sort()).toEqual(
      [
        'layer-host: src/host/fromServer.ts -> src/server/factory.ts',
        'layer-flows: src/flows/fromServer.ts -> src/server/factory.ts',
        'layer-repo: src/repo/fromModels.ts -> src/models/source.ts',
        'layer-transports: src/transports/http.ts -> src/legacy/index.ts',
        'legacy-only-from-app: src/transports/http.ts -> src/legacy/index.ts',
        'legacy-only-from-app: src/app/summarize.ts -> src/legacy/index.ts',
        'layer-server: src/server/fromApp.ts -> src/app/modelInputServer.ts',
        'layer-protocol: src/protocol/fromState.ts -> src/state/codec.ts',
        'no-circular: src/plan/a.ts -> src/plan/b.ts',
        'examples-use-public-surfaces: examples/internals.ts -> src/flows/tool.ts',
        'host-and-audit-import-no-tool: src/host/hostModels.ts -> src/flows/summarizeRepo/builtin/model.ts',
        'host-and-audit-import-no-tool: src/audit/scriptedHost.ts -> src/flows/summarizeRepo/builtin/model.ts',
        'layer-migrate: src/migrate/fromHost.ts -> src/host/client.ts',
        'layer-plan: src/plan/fromMigrate.ts -> src/migrate/workflowFromSource.ts',
        'layer-tools: src/tools/reviewChanges/tool.ts -> src/kit/index.ts',
        'tools-use-public-kit: src/tools/reviewChanges/tool.ts -> src/kit/index.ts',
        'tools-use-public-kit: src/tools/reviewChanges/tool.ts -> src/tools/askRepo/prompts.ts',
      ].sort(),
    );
  });
});
