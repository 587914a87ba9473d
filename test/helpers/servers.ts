import { silentLogger, type Logger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import type { RepositoryOptions } from '../../src/repo/index.js';
import type { AdmissionOptions } from '../../src/server/admission.js';
import type { TaskService } from '../../src/server/tasks/taskService.js';
import { ANONYMOUS } from '../../src/server/principals.js';
import { createEphemeralKeyRing, type KeyRing } from '../../src/state/index.js';
import type { HttpFront, HttpFrontOptions } from '../../src/transports/http.js';
import { httpChannel, stdioChannel, type RawChannel } from './rawChannel.js';

export interface TestFrontOptions {
  root: string;
  model?: string;
  keyRing?: KeyRing;
  tokens?: Map<string, string>;
  logger?: Logger;
  stateTtlSeconds?: number;
  maxRounds?: number;
  maxBodyBytes?: number;
  /** Tool-call admission limits. */
  admission?: AdmissionOptions;
  /** Repository reader options (a fake git command, the walker only…). */
  repository?: RepositoryOptions;
  /** The tasks extension's service (tasks run in this process). */
  tasks?: TaskService;
  /** Whether sampling requests to the host carry modelPreferences (`serve --model-preferences`). */
  modelPreferences?: 'send' | 'omit';
  /** Further front options (body budget and deadline, admission limits…). */
  front?: Partial<Omit<HttpFrontOptions, 'factory' | 'sessions'>>;
}

/** Our HTTP front, in-process, answering to Host `localhost`. */
export function createTestFront(options: TestFrontOptions): HttpFront {
  const server = createModelInputServer({
    root: options.root,
    models: parseModelSpec(options.model ?? 'host'),
    keyRing: options.keyRing ?? createEphemeralKeyRing(),
    logger: options.logger ?? silentLogger,
    defaultPrincipal: ANONYMOUS,
    ...(options.stateTtlSeconds !== undefined && { stateTtlSeconds: options.stateTtlSeconds }),
    ...(options.maxRounds !== undefined && { maxRounds: options.maxRounds }),
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.admission !== undefined && { admission: options.admission }),
    ...(options.tasks !== undefined && { tasks: options.tasks }),
    ...(options.modelPreferences !== undefined && { modelPreferences: options.modelPreferences }),
  });
  return createModelInputHttpFront(server, {
    logger: options.logger ?? silentLogger,
    allowedHosts: ['localhost'],
    allowedOrigins: ['http://localhost'],
    ...(options.tokens !== undefined && { tokens: options.tokens }),
    ...(options.maxBodyBytes !== undefined && { maxBodyBytes: options.maxBodyBytes }),
    ...options.front,
  });
}

export function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) };
}

/** A raw channel to our server over either front: a real `serve --stdio` process, or the in-process HTTP front. */
export function openChannel(kind: 'stdio' | 'http', root: string): RawChannel {
  return kind === 'stdio'
    ? stdioChannel(['--root', root, '--model', 'host', '--quiet'])
    : httpChannel(createTestFront({ root }));
}
