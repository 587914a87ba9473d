/** server/discover and tools/list: shape, cache hints, determinism, and no input_required. */
import { describeExchange, isPlainObject, resultOf, SERVER_INFO_KEY, type AuditContext } from '../context.js';
import { MODERN_REVISION } from '../../protocol/revisions.js';

const EVERY_CAPABILITY = { sampling: { tools: {} }, elicitation: {}, roots: {} };

export function cacheHintProblems(result: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const ttl = result['ttlMs'];
  if (!(typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= 0)) {
    problems.push(ttl === undefined ? 'ttlMs is missing' : `ttlMs is ${JSON.stringify(ttl)}, not an integer >= 0`);
  }
  const scope = result['cacheScope'];
  if (scope !== 'public' && scope !== 'private') {
    problems.push(scope === undefined ? 'cacheScope is missing' : `cacheScope is ${JSON.stringify(scope)}`);
  }
  return problems;
}

function verdict(ctx: AuditContext, rule: string, problems: readonly string[], passDetail: string): void {
  ctx.record(rule, problems.length === 0 ? 'pass' : 'fail', problems.length === 0 ? passDetail : problems.join('; '));
}

/** What is wrong with a server/discover result (cache hints aside); empty when it is complete. */
export function discoverProblems(result: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (result['resultType'] !== 'complete')
    problems.push(`resultType is ${JSON.stringify(result['resultType'] ?? null)}`);
  const versions = result['supportedVersions'];
  if (!Array.isArray(versions) || !versions.includes(MODERN_REVISION)) {
    problems.push(`supportedVersions is ${JSON.stringify(versions ?? null)}, without ${MODERN_REVISION}`);
  }
  if (!isPlainObject(result['capabilities'])) problems.push('capabilities is not an object');
  return problems;
}

async function checkDiscover(ctx: AuditContext): Promise<void> {
  const exchange = await ctx.call('server/discover');
  const result = resultOf(exchange);
  if (result === undefined) {
    const detail = `server/discover answered ${describeExchange(exchange)}`;
    ctx.record('discover.result', 'fail', detail);
    ctx.record('discover.cache_hints', 'fail', detail);
    return;
  }
  verdict(
    ctx,
    'discover.result',
    discoverProblems(result),
    `supportedVersions ${JSON.stringify(result['supportedVersions'])}`,
  );
  verdict(ctx, 'discover.cache_hints', cacheHintProblems(result), `ttlMs ${result['ttlMs']}, ${result['cacheScope']}`);
  const info = isPlainObject(result['_meta']) ? result['_meta'][SERVER_INFO_KEY] : undefined;
  if (isPlainObject(info) && typeof info['name'] === 'string' && typeof info['version'] === 'string') {
    ctx.observed.server = { name: info['name'], version: info['version'] };
  }
}

/** What is wrong with a tools/list result (cache hints aside); empty when it is complete. */
export function toolsListProblems(result: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (result['resultType'] !== 'complete')
    problems.push(`resultType is ${JSON.stringify(result['resultType'] ?? null)}`);
  const tools = result['tools'];
  if (!Array.isArray(tools)) return [...problems, 'tools is not an array'];
  tools.forEach((tool: unknown, index) => {
    if (!isPlainObject(tool) || typeof tool['name'] !== 'string' || tool['name'] === '') {
      problems.push(`tools[${index}] has no name`);
      return;
    }
    const schema = tool['inputSchema'];
    if (!isPlainObject(schema) || schema['type'] !== 'object') {
      problems.push(`${tool['name']}: inputSchema is not an object schema`);
    }
  });
  return problems;
}

async function checkToolsList(ctx: AuditContext): Promise<void> {
  const listings: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const exchange = await ctx.call('tools/list');
    const result = resultOf(exchange);
    if (result === undefined) {
      const detail = `tools/list answered ${describeExchange(exchange)}`;
      for (const rule of ['tools_list.result', 'tools_list.cache_hints', 'tools_list.deterministic']) {
        ctx.record(rule, 'fail', detail);
      }
      return;
    }
    listings.push(JSON.stringify(result['tools'] ?? null));
    if (attempt > 0) continue;
    const tools = Array.isArray(result['tools']) ? (result['tools'] as unknown[]) : [];
    ctx.listedTools = tools.filter(
      (tool): tool is Record<string, unknown> =>
        isPlainObject(tool) && typeof tool['name'] === 'string' && tool['name'] !== '',
    );
    ctx.observed.tools = ctx.listedTools.map((tool) => String(tool['name']));
    verdict(
      ctx,
      'tools_list.result',
      toolsListProblems(result),
      `${tools.length} tool(s): ${ctx.observed.tools.join(', ')}`,
    );
    verdict(
      ctx,
      'tools_list.cache_hints',
      cacheHintProblems(result),
      `ttlMs ${result['ttlMs']}, ${result['cacheScope']}`,
    );
  }
  const same = listings.every((listing) => listing === listings[0]);
  ctx.record(
    'tools_list.deterministic',
    same ? 'pass' : 'fail',
    same ? 'three requests, identical tools' : 'three requests gave different tools or a different order',
  );
}

async function checkNoInputRequired(ctx: AuditContext): Promise<void> {
  for (const method of ['server/discover', 'tools/list']) {
    const exchange = await ctx.call(method, {}, EVERY_CAPABILITY);
    const result = resultOf(exchange);
    if (result === undefined) {
      ctx.record(
        'input_required.allowed_methods',
        'fail',
        `${method} with every capability: ${describeExchange(exchange)}`,
      );
    } else if (result['resultType'] !== 'complete') {
      ctx.record(
        'input_required.allowed_methods',
        'fail',
        `${method} answered resultType ${JSON.stringify(result['resultType'] ?? null)}`,
      );
    }
  }
  ctx.record(
    'input_required.allowed_methods',
    'pass',
    'server/discover and tools/list complete with every capability declared',
  );
}

export async function checkDiscovery(ctx: AuditContext): Promise<void> {
  await checkDiscover(ctx);
  await checkToolsList(ctx);
  await checkNoInputRequired(ctx);
}
