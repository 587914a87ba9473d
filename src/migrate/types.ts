/**
 * What `migrate` finds and does, per sampling call site: the report printed as text or `--json`, and the
 * analysis `plan --from-source` reads. Locations are relative to the directory given, lines and columns 1-based.
 */

/** `migrated`: rewritten onto `ctx.sample`; `flagged`: replay-unsafe, left unchanged; `unsupported`: a shape not rewritten. */
export type CallSiteStatus = 'migrated' | 'flagged' | 'unsupported';

/** How the call asks for sampling. */
export type SamplingCallKind =
  /** SDK v1/v2 `server.createMessage(...)`, `mcpServer.server.createMessage(...)` */
  | 'createMessage'
  /** SDK v1 `extra.sendRequest({ method: 'sampling/createMessage', params }, ...)` */
  | 'sendRequest'
  /** SDK v2 `ctx.mcpReq.requestSampling(...)` */
  | 'requestSampling'
  /** a hand-built MRTR state machine: `inputRequired(... createMessage ...)` */
  | 'inputRequired';

export interface SourceLocation {
  /** Path relative to the directory given, with `/` separators. */
  file: string;
  line: number;
  column: number;
}

export interface CallSiteReport {
  status: CallSiteStatus;
  kind: SamplingCallKind;
  location: SourceLocation;
  /** The tool whose handler holds the call, when it is inside one. */
  tool?: string;
  /** The step name given to `ctx.sample` (migrated), or that it would get. */
  step?: string;
  /** Why it was flagged or not rewritten; for a migrated call, what else was done (e.g. a `ctx.once` wrap). */
  reason: string;
}

/** A file that could not be analysed at all (it does not parse). */
export interface FileProblem {
  file: string;
  line: number;
  column: number;
  reason: string;
}

export interface MigrateReport {
  format: 'mcp-model-input/migrate@1';
  /** Every sampling call site found, in file and source order. */
  callSites: CallSiteReport[];
  /** Files that do not parse (left unchanged). */
  problems: FileProblem[];
  /** Files the rewrite changes (relative paths). */
  changedFiles: string[];
  /** File-level notes: imports moved to SDK v2, formatting, what --check found. */
  notes: string[];
  /** Present with --check: the type check of the result. */
  check?: TypeCheckReport;
  /** True when --write wrote the changed files. */
  written: boolean;
}

export interface TypeCheckReport {
  /** No error the original did not have. */
  ok: boolean;
  /** Errors in the rewritten files that the original did not have, `file:line:column: message`. */
  errors: string[];
  /** How many errors the original already had (not counted against the rewrite). */
  preexisting: number;
}
