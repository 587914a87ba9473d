/**
 * mcp-model-input as a library. The API is split by audience into subpath exports:
 *
 * - `mcp-model-input/server`    build and serve MCP tools that need model input (2026-07-28, MRTR,
 *                               server-owned models, the legacy era as a plug-in);
 * - `mcp-model-input/host`      the client's trust boundary that fulfils embedded model requests;
 * - `mcp-model-input/summarize` the main job (`summarize_repo` in-process) as a function;
 * - `mcp-model-input/planner`   the sampling-migration planner and the compliance audit.
 *
 * This root holds what every audience shares: the local error class, the logger and the version.
 */
export { ModelInputError, isModelInputError } from './errors.js';
export type { ModelInputErrorCode } from './errors.js';
export { createStderrLogger, silentLogger } from './logger.js';
export type { Logger } from './logger.js';
export { VERSION } from './version.js';
