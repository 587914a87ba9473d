/**
 * A 2025-11-25 server asks for model input with live requests on the connection instead of
 * `input_required` results. The host answers them through the same policies (fulfilRound.ts),
 * each live request counted as one round of the tool call in progress. A refusal goes back as a
 * JSON-RPC error (-1 for a user's denial, as that revision says) and is kept, so that `callTool`
 * reports the host's reason rather than whatever the server made of it.
 *
 * A live request carries nothing that ties it to the tool call that caused it, so the calls of one
 * connection run one at a time: otherwise a request of one call would be reviewed, budgeted and
 * approved as another's (another tool in the dialog, another call's "approve the rest").
 */
import { ProtocolError, type Client } from '@modelcontextprotocol/client';

import { auditRefusedRound, fulfilRound, type CallApproval, type RoundPolicies } from './fulfilRound.js';
import { HostError, isHostError } from './hostError.js';
import type { CallPosition, ConnectedServer } from './types.js';

/** The code a 2025-11-25 client answers a request the user rejected with. */
export const USER_REJECTED_CODE = -1;

export interface LegacyCallSession {
  /** Throws the policy stop that ended a live request of this call, if any. */
  rethrowStop(): void;
  /** The `approval_denied` stop of this call (answered -1 to the server), if that was its stop. */
  declined(): HostError | undefined;
  rounds(): number;
  usage(): { tokens: number; bytes: number };
  end(): void;
}

export interface LegacyHandlers {
  /** Waits for the connection's previous call to end (or `signal` to abort), then starts this one. */
  begin(tool: string, signal: AbortSignal | undefined): Promise<LegacyCallSession>;
}

interface ActiveCall {
  tool: string;
  round: number;
  policies: RoundPolicies;
  approval: CallApproval;
  stop?: HostError;
  /** Settles when the call's last live request so far has been answered: the next one waits for it. */
  lastAnswered: Promise<unknown>;
}

export function createLegacyHandlers(
  client: Client,
  server: ConnectedServer,
  principal: string | undefined,
  policiesFor: (signal: AbortSignal | undefined) => RoundPolicies,
  maxRounds: number,
): LegacyHandlers {
  let active: ActiveCall | undefined;
  /** Settles when the last call begun so far has ended: the next one waits for it. */
  let previousEnded: Promise<void> = Promise.resolve();

  function answer(method: string, params: unknown, withdrawn?: AbortSignal): Promise<unknown> {
    const call = active;
    if (call === undefined && method === 'roots/list') return Promise.resolve(rootsOutsideACall());
    if (call === undefined) {
      return Promise.reject(new ProtocolError(-32600, `${method} outside a tool call is not answered by this host`));
    }
    // A server may send several live requests at once: they are rounds, answered one after another
    // (one dialog at a time, each reserved and settled against the call's budget in turn).
    const answered = call.lastAnswered.then(() => answerInTurn(call, method, params, withdrawn));
    call.lastAnswered = answered.catch(() => undefined);
    return answered;
  }

  /** 2025-era servers often ask for roots right after `initialize`: configured data, no model, no round. */
  function rootsOutsideACall(): { roots: unknown[] } {
    const policies = policiesFor(undefined);
    policies.audit.record({
      server: server.name,
      serverKey: server.key,
      ...(principal !== undefined && { principal }),
      tool: '(no call)',
      method: 'roots/list',
      key: 'roots/list',
      round: 0,
      decision: 'fulfilled',
    });
    return { roots: [...(policies.roots ?? [])] };
  }

  async function answerInTurn(
    call: ActiveCall,
    method: string,
    params: unknown,
    withdrawn: AbortSignal | undefined,
  ): Promise<unknown> {
    if (call.stop !== undefined) throw new ProtocolError(-32600, `the host stopped this call: ${call.stop.code}`);
    call.round += 1;
    const position: CallPosition = {
      server,
      ...(principal !== undefined && { principal }),
      tool: call.tool,
      round: call.round,
    };
    try {
      if (call.round > maxRounds) {
        auditRefusedRound([{ key: method, method, params }], position, call.policies.audit, 'rounds_exceeded');
        throw new HostError('rounds_exceeded', `${call.tool} still asked for input after ${maxRounds} rounds`, {
          round: call.round,
          lastResult: { inputRequests: { [method]: { method } } },
        });
      }
      const policies =
        withdrawn === undefined ? call.policies : { ...call.policies, signal: roundSignal(call, withdrawn) };
      const responses = await fulfilRound([{ key: method, method, params }], position, policies, call.approval);
      return responses[method];
    } catch (error) {
      if (!isHostError(error)) throw error;
      call.stop = error;
      throw new ProtocolError(error.code === 'approval_denied' ? USER_REJECTED_CODE : -32600, error.message);
    }
  }

  /**
   * The call's signal, also aborted when the server withdraws this live request (it timed out on its side, or it
   * cancelled it): an open dialog for it then closes, saying why.
   */
  function roundSignal(call: ActiveCall, withdrawn: AbortSignal): AbortSignal {
    const controller = new AbortController();
    const onWithdrawn = () => {
      const why = withdrawn.reason instanceof Error ? withdrawn.reason.message : String(withdrawn.reason ?? '');
      controller.abort(new Error(`the server withdrew its request${why === '' ? '' : ` (${why})`}`));
    };
    if (withdrawn.aborted) onWithdrawn();
    else withdrawn.addEventListener('abort', onWithdrawn, { once: true });
    const callSignal = call.policies.signal;
    return callSignal === undefined ? controller.signal : AbortSignal.any([callSignal, controller.signal]);
  }

  const declared = policiesFor(undefined).declared;
  if (declared.sampling !== undefined) {
    client.setRequestHandler(
      'sampling/createMessage',
      (request, ctx) => answer(request.method, request.params, ctx.mcpReq.signal) as never,
    );
  }
  if (declared.elicitation !== undefined) {
    client.setRequestHandler(
      'elicitation/create',
      (request, ctx) => answer(request.method, request.params, ctx.mcpReq.signal) as never,
    );
  }
  if (declared.roots !== undefined) {
    client.setRequestHandler('roots/list', (request) => answer(request.method, request.params) as never);
  }

  function waitTurn(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
    if (signal === undefined) return turn;
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      void turn.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  return {
    async begin(tool, signal) {
      const turn = previousEnded;
      let ended!: () => void;
      const thisEnded = new Promise<void>((resolve) => (ended = resolve));
      // The next call waits for this one and for every call before it (an aborted waiter included).
      previousEnded = turn.then(() => thisEnded);
      try {
        await waitTurn(turn, signal);
      } catch (error) {
        ended();
        throw error;
      }
      const call: ActiveCall = {
        tool,
        round: 0,
        policies: policiesFor(signal),
        approval: { approvedForCall: false },
        lastAnswered: Promise.resolve(),
      };
      active = call;
      return {
        rethrowStop: () => {
          if (call.stop !== undefined) throw call.stop;
        },
        declined: () => (call.stop?.code === 'approval_denied' ? call.stop : undefined),
        rounds: () => call.round,
        usage: () => {
          const { tokens, bytes } = call.policies.budget.totals();
          return { tokens, bytes };
        },
        end: () => {
          if (active === call) active = undefined;
          ended();
        },
      };
    },
  };
}
