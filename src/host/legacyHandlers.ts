/**
 * A 2025-11-25 server asks for model input with live requests on the connection instead of
 * `input_required` results. The host answers them through the same policies (fulfilRound.ts),
 * each live request counted as one round of the tool call in progress. A refusal goes back as a
 * JSON-RPC error (-1 for a user's denial, as that revision says) and is kept, so that `callTool`
 * reports the host's reason rather than whatever the server made of it.
 */
import { ProtocolError, type Client } from '@modelcontextprotocol/client';

import { fulfilRound, type CallApproval, type RoundPolicies } from './fulfilRound.js';
import { HostError, isHostError } from './hostError.js';
import type { CallPosition, ServerIdentity } from './types.js';

/** The code a 2025-11-25 client answers a request the user rejected with. */
export const USER_REJECTED_CODE = -1;

export interface LegacyCallSession {
  /** Throws the policy stop that ended a live request of this call, if any. */
  rethrowStop(): void;
  rounds(): number;
  usage(): { tokens: number; bytes: number };
  end(): void;
}

export interface LegacyHandlers {
  begin(tool: string, signal: AbortSignal | undefined): LegacyCallSession;
}

interface ActiveCall {
  tool: string;
  round: number;
  policies: RoundPolicies;
  approval: CallApproval;
  stop?: HostError;
}

export function createLegacyHandlers(
  client: Client,
  server: ServerIdentity,
  principal: string | undefined,
  policiesFor: (signal: AbortSignal | undefined) => RoundPolicies,
  maxRounds: number,
): LegacyHandlers {
  let active: ActiveCall | undefined;

  async function answer(method: string, params: unknown): Promise<unknown> {
    const call = active;
    if (call === undefined) {
      throw new ProtocolError(-32600, `${method} outside a tool call is not answered by this host`);
    }
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
        throw new HostError('rounds_exceeded', `${call.tool} still asked for input after ${maxRounds} rounds`, {
          round: call.round,
          lastResult: { inputRequests: { [method]: { method } } },
        });
      }
      const responses = await fulfilRound([{ key: method, method, params }], position, call.policies, call.approval);
      return responses[method];
    } catch (error) {
      if (!isHostError(error)) throw error;
      call.stop = error;
      throw new ProtocolError(error.code === 'approval_denied' ? USER_REJECTED_CODE : -32600, error.message);
    }
  }

  const declared = policiesFor(undefined).declared;
  if (declared.sampling !== undefined) {
    client.setRequestHandler('sampling/createMessage', (request) => answer(request.method, request.params) as never);
  }
  if (declared.elicitation !== undefined) {
    client.setRequestHandler('elicitation/create', (request) => answer(request.method, request.params) as never);
  }
  if (declared.roots !== undefined) {
    client.setRequestHandler('roots/list', (request) => answer(request.method, request.params) as never);
  }

  return {
    begin(tool, signal) {
      const call: ActiveCall = { tool, round: 0, policies: policiesFor(signal), approval: { approvedForCall: false } };
      active = call;
      return {
        rethrowStop: () => {
          if (call.stop !== undefined) throw call.stop;
        },
        rounds: () => call.round,
        usage: () => {
          const { tokens, bytes } = call.policies.budget.totals();
          return { tokens, bytes };
        },
        end: () => {
          if (active === call) active = undefined;
        },
      };
    },
  };
}
