import { performance } from 'node:perf_hooks';
const t0 = performance.now();
const { createModelInputServer, createModelInputHttpFront } = await import('./dist/app/modelInputServer.js');
const { parseModelSpec } = await import('./dist/models/sources.js');
const { createEphemeralKeyRing } = await import('./dist/state/index.js');
const { countTokens } = await import('./dist/repo/tokens.js');
const t1 = performance.now();
const root = process.argv[2];
const server = createModelInputServer({ root, models: parseModelSpec('builtin'), keyRing: createEphemeralKeyRing(), logger: { info() {}, warn() {} }, defaultPrincipal: 'x' });
const front = createModelInputHttpFront(server, { logger: { info() {}, warn() {} }, allowedHosts: ['localhost'], allowedOrigins: ['http://localhost'] });
if (process.argv[3] === 'wait') { await countTokens('warm'); }
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
let id = 0;
const call = async () => { const s = performance.now(); const r = await front.fetch(new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: 'localhost', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'summarize_repo' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'summarize_repo', arguments: {}, _meta: meta } }) })); const b = await r.json(); if (b.result?.isError !== false) console.log(JSON.stringify(b).slice(0,300)); return performance.now() - s; };
const t2 = performance.now();
const times = []; for (let i = 0; i < 6; i++) times.push((await call()).toFixed(1));
console.log('imports', (t1-t0).toFixed(0), 'setup', (t2-t1).toFixed(0), 'calls', times.join(' '));
