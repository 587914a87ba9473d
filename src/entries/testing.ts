/**
 * `mcp-model-input/testing`: run a model tool in process against the client profiles real hosts present today,
 * with the client's model scripted (docs/writing-tools.md, "Testing"). Named exports only.
 */
export { CLIENT_PROFILES, testModelTool } from '../kit/testing.js';
export type {
  ClientProfile,
  ClientProfileName,
  ScriptedClientModel,
  TestModelToolOptions,
  TestModelToolResult,
  TestRound,
} from '../kit/testing.js';
