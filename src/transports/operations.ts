/**
 * What the HTTP front answers outside the MCP endpoint, and its drain state:
 *
 * - `GET /healthz`: the process is alive (200 while it answers at all);
 * - `GET /readyz`: every readiness check passes (keys loaded, store reachable) and the front is not
 *   draining — 200, else 503; the body names each check, never a secret;
 * - draining (SIGTERM): no new MCP requests (503, `Connection: close`, `Retry-After`), the ones in
 *   flight finish; `idle()` resolves when none is left.
 */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/** One readiness check: resolves with a short detail, throws when not ready (its message is shown). */
export type ReadinessCheck = () => Promise<string>;

const CHECK_TIMEOUT_MS = 2000;

export interface Operations {
  /** The answer for `/healthz` or `/readyz`, or undefined for any other request. */
  answer(request: Request, pathname: string): Promise<Response> | undefined;
  readonly draining: boolean;
  drain(): void;
  /** Wraps one MCP request: counted in flight until its response is produced. */
  track<T>(work: () => Promise<T>): Promise<T>;
  readonly inFlight: number;
  /** Resolves once no request is in flight. */
  idle(): Promise<void>;
}

async function runCheck(check: ReadinessCheck): Promise<{ ok: boolean; detail: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    return { ok: true, detail: await Promise.race([check(), timeout]) };
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

export function createOperations(checks: Readonly<Record<string, ReadinessCheck>> = {}): Operations {
  let draining = false;
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  const settle = (): void => {
    if (inFlight > 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };

  async function readiness(): Promise<Response> {
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((name) => runCheck(checks[name] as ReadinessCheck)));
    const report = Object.fromEntries(names.map((name, index) => [name, results[index]]));
    const ready = !draining && results.every((result) => result.ok);
    const status = draining ? 'draining' : ready ? 'ready' : 'not_ready';
    return Response.json({ status, checks: report }, { status: ready ? 200 : 503 });
  }

  return {
    answer(request, pathname) {
      if (pathname !== HEALTH_PATH && pathname !== READY_PATH) return undefined;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return Promise.resolve(new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
      }
      if (pathname === HEALTH_PATH) return Promise.resolve(Response.json({ status: 'ok' }));
      return readiness();
    },
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
      settle();
    },
    async track(work) {
      inFlight += 1;
      try {
        return await work();
      } finally {
        inFlight -= 1;
        settle();
      }
    },
    get inFlight() {
      return inFlight;
    },
    idle() {
      return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}
