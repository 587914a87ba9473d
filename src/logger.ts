/**
 * Diagnostics go to stderr (on stdio, stdout IS the protocol). A logger is injected
 * everywhere so tests can capture lines and the CLI can silence them.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export function createStderrLogger(options: { quiet?: boolean; stream?: NodeJS.WritableStream } = {}): Logger {
  const stream = options.stream ?? process.stderr;
  return {
    info: (message) => {
      if (!options.quiet) stream.write(`mcp-model-input: ${message}\n`);
    },
    warn: (message) => stream.write(`mcp-model-input: warning: ${message}\n`),
  };
}

export const silentLogger: Logger = { info: () => {}, warn: () => {} };
