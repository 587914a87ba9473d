/**
 * The flag table: every command's forms, flags (range, default), environment and exit codes. `--help` prints it
 * (helpText.ts) and docs/cli.md is rendered from it (`npm run docs:cli`, reference.ts); the CLI reference test holds
 * each parser to these flags. A new flag goes in its command's parser and here, then `npm run docs:cli`.
 *
 * A group, flag or variable object used by several commands is described once on the page (the first command that
 * lists it) and named by the others. Loaded for every `--help`: data only, no imports but the renderer.
 */
import {
  HELP_FLAG,
  renderHelp,
  renderMainHelp,
  type CommandHelp,
  type EnvHelp,
  type FlagGroup,
  type FlagHelp,
} from './helpText.js';

const ALLOW_SECRET_FILE: FlagHelp = {
  flag: '--allow-secret-file GLOB',
  text: 'read a file of the secret-bearing deny list (a gitignore pattern); its content is still redacted',
  repeatable: true,
};

const BUDGETS: FlagGroup = {
  title: 'summarize_repo budgets',
  flags: [
    {
      flag: '--pick-prompt-bytes N',
      text: 'size of the `pick_files` prompt, outline and candidates included',
      range: [1024, 1048576],
      default: '24576',
    },
    {
      flag: '--read-bytes N',
      text: 'file content in the `summary` prompt',
      range: [1024, 16777216],
      default: '49152',
    },
    {
      flag: '--result-tokens N',
      text: 'the summary is cut to this many tokens',
      range: [100, 1000000],
      default: '25000',
    },
  ],
};

/** The server-owned model's limits, shared by `serve` and the local commands. */
const MODEL_LIMITS: FlagGroup = {
  title: 'Model limits (per tool call; per run for a local command)',
  flags: [
    { flag: '--model-timeout SECONDS', text: 'per provider request', range: [1, 3600], default: '60' },
    {
      flag: '--model-retries N',
      text: 'retries on 429, 408, 409, 5xx, timeouts and connection errors (`Retry-After` honoured up to 30 s)',
      range: [0, 10],
      default: '2',
    },
    { flag: '--max-model-calls N', text: 'server-owned model calls, repairs included', range: [1, 100], default: '6' },
    { flag: '--max-model-tokens N', text: 'input plus output tokens', range: [1000, 100000000], default: '200000' },
    {
      flag: '--model-deadline SECONDS',
      text: 'wall-clock time for all model calls, retries included; then an `isError` result',
      range: [1, 3600],
      default: '180',
    },
  ],
};

/** The variables the model providers read (`serve`, the local commands, `call`'s host models). */
const PROVIDER_ENV: readonly EnvHelp[] = [
  { name: 'OPENAI_API_KEY', text: 'key for `openai:MODEL`; optional when `OPENAI_BASE_URL` takes none (Ollama)' },
  {
    name: 'OPENAI_BASE_URL',
    text: 'OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1`',
    default: 'https://api.openai.com/v1',
  },
  { name: 'ANTHROPIC_API_KEY', text: 'key for `anthropic:MODEL` (required)' },
  { name: 'ANTHROPIC_BASE_URL', text: 'Messages API endpoint', default: 'https://api.anthropic.com' },
];

const JSON_RESULT: FlagHelp = { flag: '--json', text: 'print the structured result as JSON instead of the text' };
const QUIET_LOCAL: FlagHelp = {
  flag: '--quiet',
  text: 'no informational lines on stderr (such as the one line per model call)',
};

const LOCAL_EXIT: CommandHelp['exit'] = [
  [0, 'done'],
  [1, 'the tool reported an error'],
  [2, 'bad usage or configuration (arguments the tool refuses included)'],
];

const SUMMARIZE: CommandHelp = {
  name: 'summarize',
  forms: [{ args: '[DIR] [options]', summary: 'summarize a repository in-process (default model: builtin)' }],
  about: [
    'Summarizes DIR (default: the current directory) with the `summarize_repo` tool, in-process; with `host` in ' +
      '`--model`, or `--trace`, over MCP with the built-in model as the host. docs/summarize-repo.md',
  ],
  details: [
    'Every model also gets facts computed from the whole listing: languages by files and bytes, layout, manifests ' +
      'and entry points (under `facts` in `--json`). Secret-bearing files (`.env`, `id_rsa`, `*.pem`, `.npmrc`, ' +
      '`kubeconfig`…) are never listed or read, and secrets inside other files are replaced by `[redacted: <kind>]` ' +
      'before any model sees them; the result says how many were (docs/security.md).',
  ],
  groups: [
    {
      title: 'Options',
      flags: [
        { flag: '--path SUB', text: 'summarize only this sub-directory of DIR' },
        { flag: '--audience TEXT', text: 'who the summary is for', default: 'developer' },
        { flag: '--max-files N', text: 'how many files the model may pick', range: [1, 8], default: '3' },
        {
          flag: '--mode pick|explore',
          text: '`pick`: from a ranked list of files; `explore`: the model walks the tree with read-only tools first',
          default: 'pick',
        },
        JSON_RESULT,
        {
          flag: '--trace',
          text: 'call over MCP in-process, one stderr line per exchange (never prompt text)',
        },
        QUIET_LOCAL,
        {
          flag: '--model SPEC',
          text: "as for `serve`; with `host` the built-in model answers the MRTR rounds as the host's",
          default: 'builtin',
        },
        ALLOW_SECRET_FILE,
        HELP_FLAG,
      ],
    },
    MODEL_LIMITS,
    BUDGETS,
  ],
  environment: PROVIDER_ENV,
  exit: LOCAL_EXIT,
};

/** What `ask` and `review` share (runToolCommand in toolCommand.ts). */
const LOCAL_TOOL_OPTIONS: FlagGroup = {
  title: 'Output and model',
  flags: [
    JSON_RESULT,
    QUIET_LOCAL,
    {
      flag: '--model SPEC',
      text: 'as for `serve`; a local run has no client, so `host` is passed over for the next source',
      default: 'builtin',
    },
    ALLOW_SECRET_FILE,
    HELP_FLAG,
  ],
};

const ASK: CommandHelp = {
  name: 'ask',
  forms: [{ args: 'DIR "QUESTION" [options]', summary: 'answer a question about a repository, citing path:lines' }],
  about: [
    'Answers QUESTION about the repository in DIR with the `ask_repo` tool, in-process, citing path:line-range. ' +
      'docs/ask-repo.md',
  ],
  details: [
    'The model chooses the files to read; a citation of lines it never read is removed and counted. With the ' +
      'default model, `builtin`, no language model answers: the passages most likely to answer, found by the ' +
      "question's terms, each cited.",
  ],
  groups: [
    {
      title: 'Options',
      flags: [
        { flag: '--max-files N', text: 'files read at most', range: [1, 20], default: '6' },
        {
          flag: '--mode pick|explore',
          text: '`pick`: from ranked candidates; `explore`: the model lists directories and reads files itself',
          default: 'pick',
        },
      ],
    },
    LOCAL_TOOL_OPTIONS,
    MODEL_LIMITS,
  ],
  environment: PROVIDER_ENV,
  exit: LOCAL_EXIT,
};

const REVIEW: CommandHelp = {
  name: 'review',
  forms: [
    { args: '[DIR] [--base REF --head REF] [options]', summary: "review the working tree's changes, or base..head" },
  ],
  about: [
    'Reviews the changes of the git repository in DIR (default: the current directory) with the `review_changes` ' +
      'tool, in-process: the working tree against HEAD, or base..head. docs/review-changes.md',
  ],
  details: [
    'Findings (severity, path:line, message) and a verdict. Deterministic checks run on every model: a secret added ' +
      '(redacted, reported), a large binary added, a lock file changed without its manifest, conflict markers, debug ' +
      'statements. A secret-bearing file\'s diff is never shown; an empty diff prints "Nothing to review".',
  ],
  groups: [
    {
      title: 'Options',
      flags: [
        { flag: '--base REF', text: 'the commit to review from', default: 'HEAD' },
        { flag: '--head REF', text: 'the commit to review up to (needs `--base`)', default: 'the working tree' },
        { flag: '--path PATH', text: 'only these paths', repeatable: true },
        { flag: '--focus TEXT', text: 'what the model should look at most closely' },
      ],
    },
    LOCAL_TOOL_OPTIONS,
    MODEL_LIMITS,
  ],
  environment: PROVIDER_ENV,
  exit: LOCAL_EXIT,
};

const SERVE: CommandHelp = {
  name: 'serve',
  forms: [
    {
      args: '(--stdio | --http [HOST:]PORT) [options]',
      summary: 'serve summarize_repo, ask_repo and review_changes over MCP',
    },
  ],
  about: [
    'Serves the shipped tools and those of `--tool-module` over MCP 2026-07-28 (stateless), and to 2025-11-25 ' +
      'clients on the same endpoint. Secrets never reach a model (docs/security.md). Plain HTTP: terminate TLS at a ' +
      'proxy (docs/deployment.md).',
  ],
  details: [
    '2025-11-25 clients that open with `initialize` are served by the legacy adapter: a session, and live ' +
      '`sampling/createMessage` requests (`--legacy off` refuses them). Secret-bearing files (`.env`, `id_rsa`, ' +
      '`*.pem`, `.npmrc`, `kubeconfig`…) are never read, and secrets inside other files are replaced by ' +
      '`[redacted: <kind>]` before any model sees them.',
  ],
  groups: [
    {
      title: 'Transport (exactly one)',
      flags: [
        { flag: '--stdio', text: 'newline-delimited JSON-RPC on stdin/stdout (logs on stderr)' },
        {
          flag: '--http [HOST:]PORT',
          text: 'Streamable HTTP at `http://HOST:PORT/mcp`; PORT 0 picks a free port',
          default: 'HOST 127.0.0.1',
        },
      ],
    },
    {
      title: 'Tools',
      flags: [
        { flag: '--root DIR', text: 'the only tree the tools may read', default: 'the current directory' },
        {
          flag: '--tools NAMES',
          text: 'shipped tools to serve, comma-separated',
          default: 'all three; none with --tool-module',
        },
        {
          flag: '--tool-module FILE',
          text: "serve the tools of a module's default export (docs/writing-tools.md)",
          repeatable: true,
        },
        ALLOW_SECRET_FILE,
      ],
    },
    {
      title: 'Models (docs/model-sources.md)',
      flags: [
        {
          flag: '--model SPEC',
          text: 'where model input comes from',
          default: 'builtin',
          values: [
            ['builtin', 'the built-in heuristic model (no keys, no network)'],
            ['openai:MODEL', 'an OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp)'],
            ['anthropic:MODEL', 'the Anthropic Messages API'],
            ['PROVIDER:CHEAP+STRONG', '`pick_files` on CHEAP, `summary` on STRONG'],
            ['host', "the client's model over MRTR (without the sampling capability: -32021)"],
            [
              'host,openai:MODEL',
              'host if the request declares sampling, else (or if its answer is unusable) the next',
            ],
            ['pick=builtin,summary=host', 'one source per step'],
            ['TOOL.STEP=LIST', "one tool's step (`explain_file.explain=host,builtin`)"],
          ],
        },
        {
          flag: '--model-preferences send|omit',
          text: 'whether sampling requests carry `modelPreferences` (some hosts fail on them)',
          default: 'send',
        },
      ],
    },
    MODEL_LIMITS,
    BUDGETS,
    {
      title: 'Request state',
      flags: [
        {
          flag: '--state-keys-file FILE',
          text: 'request-state keys (format below); wins over `MCP_MODEL_INPUT_STATE_KEYS`',
          default: 'a random key per process',
        },
        { flag: '--state-ttl SECONDS', text: 'lifetime of a minted `requestState`', range: [1, 86400], default: '300' },
        { flag: '--max-rounds N', text: '`input_required` rounds per tool call', range: [2, 100], default: '6' },
        {
          flag: '--store URL',
          text: 'where single-use state, counts and tasks live: `memory:` or `redis://HOST:PORT[/DB]` (a fleet; Redis down: rounds refused, `/readyz` 503)',
          default: 'memory:',
        },
      ],
    },
    {
      title: 'HTTP only',
      flags: [
        {
          flag: '--tokens-file FILE',
          text: 'bearer tokens and principals (format below); others get 401',
          default: 'everyone `anonymous`',
        },
        { flag: '--allow-remote', text: 'allow a non-loopback HOST without `--tokens-file`' },
        {
          flag: '--allow-host NAME[:PORT]',
          text: "also accept this Host header; a NAME without PORT also bare, as a TLS proxy's client on 443 sends it (loopback binds accept loopback names; 0.0.0.0 and :: this machine's names and addresses)",
          repeatable: true,
        },
        {
          flag: '--max-body BYTES',
          text: 'largest request body; 413 above',
          range: [1024, 67108864],
          default: '1048576',
        },
        {
          flag: '--max-body-in-flight BYTES',
          text: 'body bytes buffered at once; 503 above',
          range: [65536, 17179869184],
          default: '67108864',
        },
        {
          flag: '--body-timeout SECONDS',
          text: 'time for a whole request body; 408 after',
          range: [1, 3600],
          default: '30',
        },
        {
          flag: '--instance-id ID',
          text: 'prefix of the 2025-11-25 session ids minted here (`ID.<uuid>`), for sticky routing',
        },
        { flag: '--metrics [HOST:]PORT', text: 'Prometheus metrics at `/metrics` on a listener of its own' },
        {
          flag: '--drain-timeout SECONDS',
          text: 'on SIGTERM: stop taking requests, give those in flight this long, exit 0',
          range: [0, 3600],
          default: '30',
        },
      ],
    },
    {
      title: 'Load limits (docs/reliability.md)',
      flags: [
        {
          flag: '--max-calls N',
          text: 'tool calls running at once; the next ones wait',
          range: [1, 10000],
          default: '2 per core, 2 to 16, when every model is host or builtin; 16 when a provider may answer',
        },
        {
          flag: '--max-queued-calls N',
          text: 'tool calls waiting; above it HTTP 503 (stdio: -32000)',
          range: [0, 100000],
          default: '64',
        },
        {
          flag: '--max-calls-per-principal N',
          text: 'calls running or waiting per principal; above it 429 (stdio: -32000)',
          range: [1, 100000],
          default: '32',
        },
        {
          flag: '--rate-limit N',
          text: 'tool calls per principal per minute across the store; then 429',
          range: [1, 1000000],
          default: 'none',
        },
        {
          flag: '--principal-token-budget N',
          text: 'server-owned model tokens per principal per day across the store; then 429',
          range: [1, 10000000000],
          default: 'none',
        },
      ],
    },
    {
      title: 'Tasks (docs/tasks.md)',
      flags: [
        {
          flag: '--tasks on|off',
          text: 'a call that declares the tasks extension runs as a task the client polls',
          default: 'on',
        },
        {
          flag: '--task-ttl SECONDS',
          text: 'a task and its result are kept this long',
          range: [60, 604800],
          default: '3600',
        },
        {
          flag: '--max-tasks-per-principal N',
          text: 'unfinished tasks per principal; above it a call runs as a plain call',
          range: [1, 10000],
          default: '32',
        },
      ],
    },
    {
      title: '2025-11-25 clients',
      flags: [
        { flag: '--legacy on|off', text: '`off` refuses `initialize` with -32022', default: 'on' },
        {
          flag: '--max-samples-per-call N',
          text: 'live sampling requests per tool call; then an `isError` result',
          range: [1, 100],
          default: '5',
        },
        { flag: '--max-sessions N', text: 'HTTP: sessions at once; then 503', range: [1, 10000], default: '100' },
        {
          flag: '--session-idle SECONDS',
          text: 'HTTP: an idle session is closed (then 404)',
          range: [1, 86400],
          default: '1800',
        },
        {
          flag: '--max-sessions-per-principal N',
          text: 'HTTP: sessions per principal; then 429',
          range: [1, 10000],
          default: '--max-sessions / 4, at least 1',
        },
        {
          flag: '--session-lifetime SECONDS',
          text: 'HTTP: no session lives longer, busy or not',
          range: [1, 604800],
          default: '3600',
        },
      ],
    },
    {
      title: 'Output',
      flags: [{ flag: '--quiet', text: 'only warnings on stderr (hides the one line per model call)' }, HELP_FLAG],
    },
  ],
  notes: [
    'Tokens file: a JSON object of bearer token (16 characters or more) to principal, e.g. ' +
      '`{"<token>": "alice"}`; on stdio the principal is the local OS user.',
    'State keys: `kid:base64` entries (kid: 1-32 of `A-Za-z0-9_-`; key: 32 random bytes, `keygen`), one per line or ' +
      'comma-separated, `#` lines ignored. The first mints, all verify.',
    'HTTP also answers `GET /healthz` and `GET /readyz` (keys loaded, store reachable, not draining: 200, else 503).',
  ],
  environment: [
    {
      name: 'MCP_MODEL_INPUT_STATE_KEYS',
      text: 'state keys, as in the keys file',
    },
    ...PROVIDER_ENV,
  ],
  exit: [
    [0, 'stopped (stdin closed, or SIGTERM after the drain)'],
    [1, 'a runtime failure'],
    [2, 'bad usage or configuration, at start-up'],
  ],
};

const KEYGEN: CommandHelp = {
  name: 'keygen',
  forms: [{ args: '[KID]', summary: 'print a fresh request-state key line (kid:base64)' }],
  about: [
    'Prints one `kid:base64` request-state key line (32 random bytes) for `--state-keys-file` or ' +
      '`MCP_MODEL_INPUT_STATE_KEYS`. KID defaults to a date stamp like `k20261130`.',
  ],
  groups: [],
  exit: [
    [0, 'printed'],
    [2, 'an invalid KID'],
  ],
};

const PLAN: CommandHelp = {
  name: 'plan',
  forms: [
    { args: 'FILE [--json]', summary: 'plan a model-assisted tool: sampling or not, and how' },
    { args: '--from-audit REPORT.json [FILE] [--json]' },
    {
      args: '--from-source DIR [--tool NAME] [--json]',
      summary: "the same plan for a server's tools, inferred from its code",
    },
    { args: '--schema' },
  ],
  about: [
    'Reads a workflow file (YAML or JSON, checked against schemas/workflow.schema.json) and prints a one-page ' +
      'architecture and one verdict: direct inference, temporary MRTR compatibility, or no model required. ' +
      'docs/migrate.md',
  ],
  details: [
    'The architecture: the decision, the discovery contract, the request envelope and its errors, the round table, ' +
      'the retry contract, state protection, the safety policy and the removal plan, then the findings (hard ' +
      'rejects, refusals). Errors in the file name the field, and nothing is printed on stdout. Examples: ' +
      'examples/plans/.',
  ],
  groups: [
    {
      title: 'Options',
      flags: [
        { flag: '--json', text: 'print the plan as JSON instead of Markdown' },
        {
          flag: '--from-audit REPORT.json',
          text: 'fill the round table from an `audit --json` report',
        },
        {
          flag: '--from-source DIR',
          text: "infer each sampling tool's workflow from a TypeScript server's code; one plan per tool",
        },
        { flag: '--tool NAME', text: 'with `--from-source`: only this tool' },
        { flag: '--schema', text: 'print the workflow JSON Schema' },
        HELP_FLAG,
      ],
    },
  ],
  exit: [
    [0, 'a plan was printed'],
    [2, 'bad usage, an invalid workflow or report, or no sampling tool in DIR'],
  ],
};

const MIGRATE: CommandHelp = {
  name: 'migrate',
  forms: [
    {
      args: 'DIR [--write [--force]] [--json] [--check]',
      summary: "rewrite a server's sampling tool handlers onto the kit",
    },
  ],
  about: [
    'Rewrites the sampling tool handlers of a TypeScript MCP server under DIR onto the kit (`defineModelTool`, ' +
      '`ctx.sample`, `ctx.once`) where it can prove that safe, and reports the rest. docs/migrate.md',
  ],
  details: [
    'It finds handlers that call SDK v1 `server.createMessage`, `mcpServer.server.createMessage` or ' +
      '`extra.sendRequest` sampling/createMessage, or SDK v2 `ctx.mcpReq.requestSampling`, and rewrites each it can ' +
      'prove safe into a `defineModelTool` registered with `registerModelTool` on the same server: each sampling call ' +
      "becomes `await ctx.sample('<step>', params)`. Effects that would run again on every MRTR round (file writes, " +
      'network and database calls, clocks, randomness, writes outside the handler) are wrapped in `ctx.once(...)` ' +
      'where that is mechanical; otherwise the handler is left unchanged and reported. Hand-built ' +
      '`inputRequired(...)` state machines are reported, not rewritten. Without `--write` it prints the unified ' +
      "diff and the report and writes nothing; output follows the project's Prettier settings.",
  ],
  groups: [
    {
      title: 'Options',
      flags: [
        { flag: '--write', text: 'edit the files in place (only in a clean git work tree)' },
        { flag: '--force', text: 'with `--write`: also outside a clean git work tree' },
        { flag: '--json', text: 'print the report as JSON' },
        { flag: '--check', text: 'type-check the result in memory and list the errors the rewrite adds' },
        HELP_FLAG,
      ],
    },
  ],
  exit: [
    [0, 'done'],
    [1, '`--check` found errors, or `--write` was refused'],
    [2, 'bad usage'],
  ],
};

const STDIO_TARGET: FlagHelp = {
  flag: '--stdio "COMMAND"',
  text: 'spawn COMMAND (split like a shell would, run without one)',
};
const URL_TARGET: FlagHelp = {
  flag: '--url URL',
  text: 'a Streamable HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp`',
};

const AUDIT: CommandHelp = {
  name: 'audit',
  forms: [
    {
      args: '(--stdio "COMMAND" | --url URL) [options]',
      summary: 'probe a live MCP server against the 2026-07-28 rules',
    },
  ],
  about: [
    'Probes a live MCP server against the 2026-07-28 rules: pass, fail or not applicable, each with its ' +
      'specification page; with `--tool`, its MRTR rounds too. docs/migrate.md',
  ],
  details: [
    'The rules: discovery and cache hints, `tools/list` determinism, the exact -32602/-32022/-32021/-32601 errors, ' +
      'unanswered notifications, and for a named tool its MRTR behaviour (fresh ids, tampered and mis-bound state, ' +
      'missing and malformed answers), driven by a scripted host model (built-in heuristic; no keys, no network).',
  ],
  groups: [
    { title: 'Target (exactly one)', flags: [STDIO_TARGET, URL_TARGET] },
    {
      title: 'Options',
      flags: [
        { flag: '--tool NAME', text: "drive this tool's flow: capability gate, rounds, state checks" },
        { flag: '--args JSON', text: 'its arguments, a JSON object', default: '{}' },
        { flag: '--answers FILE', text: 'scripted answers: `{"<input key>": "text" | ["round 1", "round 2"]}`' },
        { flag: '--header "Name: value"', text: 'HTTP: an extra request header', repeatable: true },
        { flag: '--timeout MS', text: 'per request', range: [100, 600000], default: '10000' },
        { flag: '--no-interop', text: 'skip the official-client connection check' },
        { flag: '--json', text: 'print the report as JSON (for CI and `plan --from-audit`)' },
        HELP_FLAG,
      ],
    },
  ],
  exit: [
    [0, 'no rule failed'],
    [1, 'a rule failed'],
    [2, 'bad usage'],
  ],
};

/** How `call` and `discover` reach a server. */
const HOST_TARGET: FlagGroup = {
  title: 'Target (one of --stdio, --url)',
  flags: [
    STDIO_TARGET,
    URL_TARGET,
    { flag: '--token-env NAME', text: 'HTTP: send the bearer token held in environment variable NAME' },
    {
      flag: '--server-stderr MODE',
      text: "stdio: the server's stderr: `prefixed` (held while a dialog is open), `log:FILE` (appended), `ignore`, `inherit`",
      default: 'prefixed',
    },
  ],
};

const CALL: CommandHelp = {
  name: 'call',
  forms: [
    {
      args: 'TOOL (--stdio "COMMAND" | --url URL) [options]',
      summary: 'call a tool as a host that answers model input safely',
    },
  ],
  about: [
    "Calls one tool as a host that checks, approves and answers the server's requests for model input " +
      '(sampling), elicitation and roots within its budgets. docs/host.md',
  ],
  details: [
    'When the server asks for model input (an embedded `sampling/createMessage` in an `input_required` result, or ' +
      'a live request from a 2025-11-25 server), the host checks it against what it declared, validates it, asks ' +
      'for approval, keeps to its budgets, round cap and rate limit, answers with its own model, and retries the ' +
      "call with the same arguments, the answers and the server's `requestState` echoed byte for byte. " +
      'Form-mode elicitation requests are answered by `--elicit`, `roots/list` by `--root`.',
  ],
  groups: [
    HOST_TARGET,
    {
      title: 'Options',
      flags: [
        { flag: '--args JSON', text: "the tool's arguments, a JSON object", default: '{}' },
        {
          flag: '--host-model SPEC',
          text: 'comma-separated `SOURCE[=cheap|strong|balanced]`, SOURCE `builtin`, `scripted:FILE` or as for `serve`',
          default: 'builtin',
        },
        {
          flag: '--approve MODE',
          text: 'each sampling round: `prompt` (a dialog), `auto`, `deny`, or `rules:FILE` (docs/host.md)',
          default: 'prompt',
        },
        {
          flag: '--elicit MODE',
          text: 'form-mode elicitation (declared in every mode): `prompt`, `auto-decline`, or `rules:FILE` (field name to value; declined unless every required field fits)',
          default: 'prompt on a terminal, else auto-decline',
        },
        { flag: '--max-rounds N', text: '`input_required` rounds per call', range: [1, 100], default: '5' },
        {
          flag: '--on-deny stop|fallback',
          text: 'a declined round: `stop` (exit 3), or call again without declaring sampling',
          default: 'stop',
        },
        {
          flag: '--audit FILE',
          text: 'append a JSON line per model request (`-`: stderr); never prompt or response text',
        },
        {
          flag: '--audit-max-bytes N',
          text: 'rotate the audit file to FILE.1 at N bytes',
          range: [1024],
          default: '67108864',
        },
        { flag: '--root DIR', text: 'answer `roots/list` with these directories', repeatable: true },
        {
          flag: '--no-tasks',
          text: 'do not declare the tasks extension (by default a task is polled, and cancelled on Ctrl-C)',
        },
        { flag: '--trace', text: 'one stderr line per protocol message (ids, methods, keys, sizes)' },
        { flag: '--json', text: 'print `{result, rounds, usage}` as JSON' },
        HELP_FLAG,
      ],
    },
  ],
  notes: [
    'Ctrl-C in a question stops the call. A stdio server runs in a session of its own: it cannot open your terminal.',
  ],
  environment: PROVIDER_ENV,
  exit: [
    [0, 'success'],
    [1, 'the tool answered with an error result'],
    [2, 'bad usage or configuration'],
    [3, 'denied (the approval said no)'],
    [4, "stopped by a host policy, or the host's model failed"],
    [5, 'protocol or connection error'],
    [6, 'the result was printed cut (`--json`: nested deeper than 64 levels)'],
    [130, 'cancelled (Ctrl-C; a task is sent `tasks/cancel`)'],
  ],
};

const DISCOVER: CommandHelp = {
  name: 'discover',
  forms: [{ args: '(--stdio "COMMAND" | --url URL) [options]', summary: 'show what a server says it is and offers' }],
  about: [
    'Prints what a server says it is (unverified) and offers: `server/discover` on 2026-07-28, `initialize` on ' +
      '2025-11-25. A server may list more tools to a client that declares more.',
  ],
  groups: [
    HOST_TARGET,
    {
      title: 'Options',
      flags: [
        {
          flag: '--declare LIST',
          text: 'client capabilities to declare: `sampling`, `elicitation`, `roots` (nothing is answered)',
          default: 'none',
        },
        { flag: '--json', text: 'print the discovery as JSON' },
        HELP_FLAG,
      ],
    },
  ],
  exit: [
    [0, 'success'],
    [2, 'bad usage'],
    [5, 'protocol or connection error'],
  ],
};

/** Every command, in the order `--help` and docs/cli.md list them. */
export const COMMAND_HELP: readonly CommandHelp[] = [
  SUMMARIZE,
  ASK,
  REVIEW,
  SERVE,
  KEYGEN,
  PLAN,
  MIGRATE,
  AUDIT,
  CALL,
  DISCOVER,
];

export const MAIN_TITLE = 'mcp-model-input — model input for MCP tools on the stateless 2026-07-28 protocol';

export const MAIN_USAGE = renderMainHelp(MAIN_TITLE, COMMAND_HELP);
export const SUMMARIZE_USAGE = renderHelp(SUMMARIZE);
export const ASK_USAGE = renderHelp(ASK);
export const REVIEW_USAGE = renderHelp(REVIEW);
export const SERVE_USAGE = renderHelp(SERVE);
export const KEYGEN_USAGE = renderHelp(KEYGEN);
export const PLAN_USAGE = renderHelp(PLAN);
export const MIGRATE_USAGE = renderHelp(MIGRATE);
export const AUDIT_USAGE = renderHelp(AUDIT);
export const CALL_USAGE = renderHelp(CALL);
export const DISCOVER_USAGE = renderHelp(DISCOVER);
