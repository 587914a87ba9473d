/**
 * Rules judged over the whole audit: sessions, server-to-client requests, stdout hygiene, serverInfo.
 * A server that never answered gets "not applicable" here rather than a vacuous pass.
 */
import { isRequestMessage } from '../channel.js';
import { isPlainObject, SERVER_INFO_KEY, type AuditContext } from '../context.js';

const SILENT = 'no result was received';

export function checkTransport(ctx: AuditContext): void {
  const answered = ctx.results.length > 0;
  if (ctx.channel.kind === 'http') {
    if (ctx.sessionIds.length > 0) {
      ctx.record('transport.no_sessions', 'fail', `Mcp-Session-Id on ${ctx.sessionIds.length} response(s)`);
    } else {
      ctx.record(
        'transport.no_sessions',
        answered ? 'pass' : 'not_applicable',
        answered ? 'no Mcp-Session-Id on any response' : SILENT,
      );
    }
    ctx.record('transport.stdout_clean', 'not_applicable', 'HTTP');
  } else {
    ctx.record('transport.no_sessions', 'not_applicable', 'stdio has no session header');
    const noise = ctx.channel.noise();
    if (noise.length > 0) {
      ctx.record('transport.stdout_clean', 'fail', `non-JSON-RPC output on stdout: ${JSON.stringify(noise[0])}`);
    } else {
      ctx.record(
        'transport.stdout_clean',
        answered ? 'pass' : 'not_applicable',
        answered ? 'only JSON-RPC lines' : SILENT,
      );
    }
  }

  const requests = ctx.channel.stray().filter((entry) => isRequestMessage(entry.message));
  if (requests.length > 0) {
    const methods = [...new Set(requests.map((entry) => String(entry.message['method'])))];
    ctx.record('transport.no_server_requests', 'fail', `the server sent ${methods.join(', ')} as live request(s)`);
  } else {
    ctx.record('transport.no_server_requests', answered ? 'pass' : 'not_applicable', answered ? 'none seen' : SILENT);
  }

  const missing = ctx.results.filter(({ result }) => {
    const info = isPlainObject(result['_meta']) ? result['_meta'][SERVER_INFO_KEY] : undefined;
    return !(isPlainObject(info) && typeof info['name'] === 'string' && typeof info['version'] === 'string');
  });
  if (!answered) ctx.record('result.server_info', 'fail', SILENT);
  else if (missing.length > 0) {
    const methods = [...new Set(missing.map((entry) => entry.method))];
    ctx.record(
      'result.server_info',
      'fail',
      `missing on ${missing.length} of ${ctx.results.length} results (${methods.join(', ')})`,
    );
  } else {
    ctx.record('result.server_info', 'pass', `on all ${ctx.results.length} results`);
  }
}
