/**
 * The conformance suite's client under test: the same host client the `summarize` command uses
 * (src/host/client.ts — the official SDK client pinned to 2026-07-28, answering sampling with
 * the built-in model), pointed at the suite's scenario server. It lists the tools and calls each
 * one with arguments made from its input schema, answering form elicitations with schema values.
 *
 * Usage (by the suite): MCP_CONFORMANCE_SCENARIO=<name> tsx examples/conformanceClient.ts <url>
 */
import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';

import { clientTransport, createBuiltinModel, createHostClient } from '../src/entries/host.js';

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; default?: unknown };

/** A value of the schema's type: enough for fixture tools that check types, not meanings. */
function sampleValue(schema: JsonSchema | undefined): unknown {
  if (schema?.default !== undefined) return schema.default;
  switch (schema?.type) {
    case 'number':
    case 'integer':
      return 2;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return sampleObject(schema);
    default:
      return 'conformance';
  }
}

function sampleObject(schema: JsonSchema | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([key, value]) => [key, sampleValue(value)]));
}

async function acceptWithSchemaValues(params: ElicitRequestParams): Promise<ElicitResult> {
  const schema = 'requestedSchema' in params ? (params.requestedSchema as JsonSchema) : undefined;
  return { action: 'accept', content: sampleObject(schema) as ElicitResult['content'] };
}

async function main(): Promise<void> {
  const url = process.argv[2];
  if (url === undefined) throw new Error('usage: conformanceClient.ts <server-url>');
  const client = createHostClient({
    name: 'mcp-model-input-conformance-client',
    model: createBuiltinModel(),
    elicit: acceptWithSchemaValues,
  });
  await client.connect(clientTransport({ kind: 'http', url }));
  const { tools } = await client.listTools();
  for (const tool of tools) {
    // One tool's protocol violation (e.g. a result without resultType, which the SDK refuses from a
    // 2026-07-28 server) is reported and the client goes on to the next tool.
    try {
      const result = await client.callTool({
        name: tool.name,
        arguments: sampleObject(tool.inputSchema as JsonSchema),
      });
      process.stderr.write(`called ${tool.name}: isError=${String(result.isError ?? false)}\n`);
    } catch (error) {
      process.stderr.write(`called ${tool.name}: refused: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  await client.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`conformance client failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
