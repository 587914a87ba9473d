/** The context a tool handler gets for a first call (no state, no answers), as the server would build it. */
import type { ToolContext } from '../../src/flows/tool.js';

export function firstCallContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    principal: 'p',
    clientCapabilities: {},
    requestState: undefined,
    inputResponses: undefined,
    signal: new AbortController().signal,
    progress: async () => {},
    log: async () => {},
    ...overrides,
  };
}
