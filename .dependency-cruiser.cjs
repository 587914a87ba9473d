/**
 * The layer order of src/ (docs/architecture.md, "Layers"), enforced by `npm test` (npm run deps).
 * Imports point down this list; a folder may import its own layer and any layer below it:
 *
 *   cli                  argument parsing, commands, terminal UI — the only place that prints
 *   entries, index.ts    public surfaces by audience (./server, ./summarize; ./host and ./planner are
 *                        host/index.ts and plan/index.ts)
 *   app                  composition: server + fronts + key ring + models + the legacy era
 *   tools                shipped model tools (ask_repo, review_changes): plug-in folders that import only the
 *                        kit's public surface, src/entries/tool.ts (rule tools-use-public-kit)
 *   transports | legacy  the fronts; the 2025-11-25 era, a plug-in only app/ (and the ./server surface) wires
 *   server               server assembly, the era seam
 *   kit                  the model-tool kit: defineModelTool, replay, routes down the model plan — knows no tool
 *   migrate              the codemod and the source reader of `plan --from-source` (ts-morph); it reads
 *                        the planner's workflow types and nothing of the server or client side
 *   plan > audit > host  the planner; the compliance probe (a client); the host runtime — the client
 *                        side, which never imports the server side
 *   flows                the flow engine, the tool contract, summarize_repo with its built-in heuristic
 *   models               model sources: providers, the builtin seam
 *   repo                 listing, ignore rules, reading, ranking
 *   state                request-state codec, key ring, stores (memory, Redis)
 *   protocol             revision constants, envelope and capability rules, sanitising
 *   errors.ts, logger.ts, loadOnce.ts, version.ts   shared leaves
 */
const LAYERS = [
  ['cli', '^src/(cli/|cli\\.ts$)'],
  ['entries', '^src/(entries/|index\\.ts$)'],
  ['app', '^src/app/'],
  ['tools', '^src/tools/'],
  ['transports', '^src/transports/'],
  ['legacy', '^src/legacy/'],
  ['server', '^src/server/'],
  ['kit', '^src/kit/'],
  ['migrate', '^src/migrate/'],
  ['plan', '^src/plan/'],
  ['audit', '^src/audit/'],
  ['host', '^src/host/'],
  ['flows', '^src/flows/'],
  ['models', '^src/models/'],
  ['repo', '^src/repo/'],
  ['state', '^src/state/'],
  ['protocol', '^src/protocol/'],
];
const pathOf = Object.fromEntries(LAYERS);

/** Which layers each layer must not import (besides everything above it in the list). */
const SIDEWAYS = {
  transports: ['legacy', 'plan', 'audit', 'host'],
  legacy: ['transports', 'plan', 'audit', 'host'],
  server: ['plan', 'audit', 'host'],
  kit: ['plan', 'audit', 'host'],
  migrate: ['audit', 'host', 'flows', 'models', 'repo', 'state'],
  plan: ['host'],
};

function above(name) {
  const index = LAYERS.findIndex(([layer]) => layer === name);
  return LAYERS.slice(0, index).map(([layer]) => layer);
}

const layerRules = LAYERS.filter(([name]) => name !== 'cli').map(([name, path]) => {
  const forbidden = [...new Set([...above(name), ...(SIDEWAYS[name] ?? [])])]
    // The ./server surface re-exports the legacy plug-in for library users who assemble their own server.
    .filter((target) => !(name === 'entries' && target === 'legacy'));
  // A shipped tool imports the kit's public surface (src/entries/tool.ts) and nothing else of src/.
  if (name === 'tools') {
    return {
      name: 'layer-tools',
      comment: 'src/tools may import only its own folder and the public kit, src/entries/tool.ts',
      severity: 'error',
      from: { path },
      to: { path: '^src/', pathNot: ['^src/tools/', '^src/entries/tool\\.ts$'] },
    };
  }
  return {
    name: `layer-${name}`,
    comment: `src/${name} may not import ${forbidden.join(', ')} (see docs/architecture.md, "Layers")`,
    severity: 'error',
    from: { path },
    to: { path: forbidden.map((target) => pathOf[target]) },
  };
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'legacy-only-from-app',
      comment:
        'the legacy era is a plug-in: its wiring (app/modelInputServer.ts) and the ./server surface ' +
        '(entries/server.ts) are the only files outside src/legacy/ that may import it',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: ['^src/legacy/', '^src/app/modelInputServer\\.ts$', '^src/entries/server\\.ts$'],
      },
      to: { path: '^src/legacy/' },
    },
    {
      name: 'host-and-audit-import-no-tool',
      comment:
        'the host runtime and the audit are clients: they import no tool (summarize_repo, the kit); their deterministic ' +
        'model comes from the composition (app/, the ./host surface)',
      severity: 'error',
      from: { path: '^src/(host|audit)/' },
      to: { path: ['^src/flows/summarizeRepo/', '^src/kit/', '^examples/'] },
    },
    {
      name: 'tools-use-public-kit',
      comment:
        'a shipped tool is written as an outside author would write it: each tool folder imports only itself and ' +
        'the public kit (src/entries/tool.ts), never another tool',
      severity: 'error',
      from: { path: '^src/tools/([^/]+)/' },
      to: { path: '^src/', pathNot: ['^src/tools/$1/', '^src/entries/tool\\.ts$'] },
    },
    {
      name: 'no-circular',
      comment: 'no import cycles, type-only ones included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'src-not-to-tests',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|examples|scripts)/' },
    },
    {
      name: 'examples-use-public-surfaces',
      comment: 'examples/ import only the public surfaces (package.json "exports")',
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^src/', pathNot: '^src/(index\\.ts|entries/[^/]+\\.ts|plan/index\\.ts)$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|\\.conformance)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.check.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
