/**
 * The flag table: every command's forms, flags (range, default), environment and exit codes. `--help` prints it
 * (helpText.ts) and docs/cli.md is rendered from it (`npm run docs:cli`, reference.ts); the CLI reference test holds
 * each parser to these flags. A new flag goes in its command's parser and here, then `npm run docs:cli`.
 *
 * Loaded for every `--help`: data only, no imports but the renderer.
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

const SECRET_FILES =
  'Secret-bearing files (`.env`, `id_rsa`, `*.pem`, `.npmrc`, `.aws/credentials`, `kubeconfig`, `*.tfstate`…) are ' +
  'never listed, shown to a model or read, and secrets inside other files are replaced by `[redacted: <kind>]` ' +
  'before any model sees them (docs/security.md).';

const ALLOW_SECRET_FILE: FlagHelp = {
  flag: '--allow-secret-file GLOB',
  text:
    'let a file of the secret-bearing deny list be read (gitignore syntax, relative to the root, e.g. ' +
    "`'fixtures/*.pem'`); its content is still redacted",
  repeatable: true,
};

const BUDGETS: FlagGroup = {
  title: 'summarize_repo budgets',
  flags: [
    {
      flag: '--pick-prompt-bytes N',
      text: 'size of the `pick_files` prompt in bytes, outline and candidates included',
      range: [1024, 1048576],
      default: '24576',
    },
    {
      flag: '--read-bytes N',
      text: 'file content in the `summary` prompt, bytes in all, at most 16 KiB a file',
      range: [1024, 16777216],
      default: '49152',
    },
    {
      flag: '--result-tokens N',
      text: 'the summary text is cut to this many tokens',
      range: [100, 1000000],
      default: '25000',
    },
  ],
};

/** The server-owned model's limits, shared by `serve` and the local commands. */
const MODEL_LIMITS: FlagGroup = {
  title: 'Model limits (per tool call; for a local command, per run)',
  flags: [
    { flag: '--model-timeout SECONDS', text: 'per provider request', range: [1, 3600], default: '60' },
    {
      flag: '--model-retries N',
      text: 'retries on 429, 408, 409, 5xx, timeouts and connection errors, with backoff, honouring `Retry-After` up to 30 s',
      range: [0, 10],
      default: '2',
    },
    {
      flag: '--max-model-calls N',
      text: 'server-owned model calls, a repair request included',
      range: [1, 100],
      default: '6',
    },
    { flag: '--max-model-tokens N', text: 'input plus output tokens', range: [1000, 100000000], default: '200000' },
    {
      flag: '--model-deadline SECONDS',
      text: 'wall-clock time for all model calls, retries and waits included; past it the call ends with an `isError` result',
      range: [1, 3600],
      default: '180',
    },
  ],
};

const LOCAL_MODEL: FlagHelp = {
  flag: '--model SPEC',
  text: 'where model input comes from, as for `serve`; a local run has no client, so `host` is passed over for the next source of the list',
  default: 'builtin',
};

const JSON_RESULT: FlagHelp = { flag: '--json', text: 'print the structured result as JSON instead of the text' };
const QUIET_LOCAL: FlagHelp = {
  flag: '--quiet',
  text: 'no informational lines on stderr (such as the one line per model call)',
};

const PROVIDER_ENV: readonly EnvHelp[] = [
  {
    name: 'OPENAI_API_KEY',
    text: 'key for `openai:MODEL`; optional when `OPENAI_BASE_URL` names a server that takes none (Ollama)',
  },
  {
    name: 'OPENAI_BASE_URL',
    text: 'OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1` (Ollama)',
    default: '`https://api.openai.com/v1`',
  },
  { name: 'ANTHROPIC_API_KEY', text: 'key for `anthropic:MODEL` (required)' },
  { name: 'ANTHROPIC_BASE_URL', text: 'Messages API endpoint', default: '`https://api.anthropic.com`' },
];

const LOCAL_EXIT: CommandHelp['exit'] = [
  [0, 'done'],
  [1, 'the tool reported an error'],
  [2, 'bad usage or configuration (arguments the tool refuses included)'],
];

const SUMMARIZE: CommandHelp = {
  name: 'summarize',
  forms: [{ args: '[DIR] [options]', summary: 'summarize a repository in-process (default model: builtin)' }],
  about: [
    'Summarizes DIR (default: the current directory) with the `summarize_repo` tool, in-process: directly on a ' +
      'server-owned model (the default `builtin`: no keys, no network), or, with `host` in `--model` or with ' +
      '`--trace`, through the official MCP client, which answers the MRTR rounds with the built-in model. Secrets ' +
      'never reach a model; the result says how many were redacted (docs/security.md). docs/summarize-repo.md',
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
          text:
            '`pick`: the model picks from a ranked list of files; `explore`: it walks the repository with read-only ' +
            'tools (`list_directory`, `read_file`, `search`) before it summarizes, and the output lists the calls it made',
          default: 'pick',
        },
        {
          flag: '--json',
          text: 'print the structured result as JSON (files picked, read and skipped, tokens, facts, model usage)',
        },
        {
          flag: '--trace',
          text:
            'run the call over MCP in-process and print each exchange to stderr (id, method, `resultType`, input keys, ' +
            'state size; never prompt text)',
        },
        {
          flag: '--quiet',
          text: 'no informational lines on stderr (the progress line, the one line per model call)',
        },
        {
          flag: '--model SPEC',
          text: "where model input comes from, as for `serve`; `host` runs the MRTR rounds with the built-in model as the host's",
          default: 'builtin',
        },
        ALLOW_SECRET_FILE,
        HELP_FLAG,
      ],
    },
    MODEL_LIMITS,
    BUDGETS,
  ],
  environmentOf: 'serve',
  exit: LOCAL_EXIT,
};

const ASK: CommandHelp = {
  name: 'ask',
  forms: [{ args: 'DIR "QUESTION" [options]', summary: 'answer a question about a repository, citing path:lines' }],
  about: [
    'Answers QUESTION about the repository in DIR with the `ask_repo` tool, in-process, citing path:line-range; a ' +
      'citation of lines the model never read is removed and counted. The default model, `builtin`, answers with ' +
      "the passages that match the question's terms. docs/ask-repo.md",
  ],
  groups: [
    {
      title: 'Options',
      flags: [
        { flag: '--max-files N', text: 'files read at most', range: [1, 20], default: '6' },
        {
          flag: '--mode pick|explore',
          text: '`pick`: the model chooses from ranked candidates; `explore`: it lists directories and reads files on its own, a few turns',
          default: 'pick',
        },
        JSON_RESULT,
        QUIET_LOCAL,
        LOCAL_MODEL,
        ALLOW_SECRET_FILE,
        HELP_FLAG,
      ],
    },
    MODEL_LIMITS,
  ],
  environmentOf: 'serve',
  exit: LOCAL_EXIT,
};

const REVIEW: CommandHelp = {
  name: 'review',
  forms: [
    { args: '[DIR] [--base REF --head REF] [options]', summary: "review the working tree's changes, or base..head" },
  ],
  about: [
    'Reviews the changes of the git repository in DIR (default: the current directory) with the `review_changes` ' +
      'tool, in-process: the working tree (staged and unstaged) against HEAD, or base..head. Findings (severity, ' +
      'path:line, message) and a verdict; the deterministic checks (secrets added, large binaries, lock files, ' +
      'conflict markers, debug statements) run on every model. docs/review-changes.md',
  ],
  groups: [
    {
      title: 'Options',
      flags: [
        { flag: '--base REF', text: 'the commit to review from', default: 'HEAD, against the working tree' },
        { flag: '--head REF', text: 'the commit to review up to (needs `--base`)', default: 'the working tree' },
        { flag: '--path PATH', text: 'only these paths', repeatable: true },
        { flag: '--focus TEXT', text: 'what the model should look at most closely' },
        JSON_RESULT,
        QUIET_LOCAL,
        LOCAL_MODEL,
        ALLOW_SECRET_FILE,
        HELP_FLAG,
      ],
    },
    MODEL_LIMITS,
  ],
  environmentOf: 'serve',
  exit: LOCAL_EXIT,
};

const MODEL_SPEC: FlagHelp = {
  flag: '--model SPEC',
  text: 'where model input comes from; see docs/model-sources.md',
  default: 'builtin',
  values: [
    ['builtin', "the server's built-in heuristic model (no keys, no network)"],
    [
      'openai:MODEL',
      'an OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, LM Studio, llama.cpp; `OPENAI_BASE_URL`)',
    ],
    ['anthropic:MODEL', 'the Anthropic Messages API (`ANTHROPIC_API_KEY`)'],
    ['PROVIDER:CHEAP+STRONG', 'two models: `pick_files` on CHEAP, `summary` on STRONG'],
    ['host', "the client's model over MRTR (needs the sampling capability; clients without it get -32021)"],
    [
      'host,openai:MODEL',
      'a preference list: host when the request declares sampling, else the next; the next also answers a step whose host answer is unusable (`host,builtin` too)',
    ],
    ['pick=builtin,summary=anthropic:MODEL', 'one source per step'],
    ['TOOL.STEP=LIST', 'one step of one tool (`explain_file.explain=host,builtin`)'],
  ],
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
    'Serves the shipped tools and those of `--tool-module` over MCP revision 2026-07-28 (stateless), and ' +
      '2025-11-25 clients (`initialize`, a session, live sampling requests) on the same endpoint unless ' +
      '`--legacy off`. ' +
      SECRET_FILES,
    'It speaks plain HTTP: terminate TLS at a proxy. Tokens, TLS, a fleet sharing Redis, metrics, Kubernetes: ' +
      'docs/deployment.md.',
  ],
  groups: [
    {
      title: 'Transport (exactly one)',
      flags: [
        { flag: '--stdio', text: 'newline-delimited JSON-RPC on stdin/stdout (logs go to stderr)' },
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
          text: 'the shipped tools to serve, comma-separated: `summarize_repo`, `ask_repo`, `review_changes`',
          default: 'all three; none when --tool-module is given',
        },
        {
          flag: '--tool-module FILE',
          text:
            'serve the tools a module exports by default (made with `defineModelTool` from `mcp-model-input/tool`, ' +
            'or an array of them; docs/writing-tools.md); a module that fails to load or exports no tool stops start-up',
          repeatable: true,
        },
        ALLOW_SECRET_FILE,
      ],
    },
    {
      title: 'Models',
      flags: [
        MODEL_SPEC,
        {
          flag: '--model-preferences send|omit',
          text:
            'whether sampling requests to the host carry `modelPreferences`; `omit` for hosts that fail on them ' +
            '(see docs/model-sources.md)',
          default: 'send',
        },
      ],
    },
    MODEL_LIMITS,
    BUDGETS,
    {
      title: 'Request state and rounds',
      flags: [
        {
          flag: '--state-keys-file FILE',
          text: 'request-state keys (format below); overrides `MCP_MODEL_INPUT_STATE_KEYS`',
          default: 'a random key per process',
        },
        { flag: '--state-ttl SECONDS', text: 'lifetime of a minted `requestState`', range: [1, 86400], default: '300' },
        {
          flag: '--max-rounds N',
          text: '`input_required` rounds allowed per tool call, re-asks included',
          range: [2, 100],
          default: '6',
        },
        {
          flag: '--store URL',
          text: 'where single-use request state, per-principal counts and tasks live',
          default: 'memory:',
          values: [
            ['memory:', 'this process only (one instance)'],
            [
              'redis://HOST:PORT[/DB]',
              'shared by every instance (a fleet); if Redis is unreachable, MRTR rounds are refused and `/readyz` says so',
            ],
          ],
        },
      ],
    },
    {
      title: 'HTTP only',
      flags: [
        {
          flag: '--tokens-file FILE',
          text: 'bearer tokens and their principals (format below); a request without a known token gets 401',
          default: 'none: every caller is `anonymous`',
        },
        { flag: '--allow-remote', text: 'allow a non-loopback HOST without `--tokens-file`' },
        {
          flag: '--allow-host NAME[:PORT]',
          text:
            'also accept this Host header (the DNS-rebinding allow-list: loopback names are accepted on loopback ' +
            "binds, and this machine's names and addresses on 0.0.0.0 / ::)",
          repeatable: true,
        },
        {
          flag: '--max-body BYTES',
          text: 'largest accepted request body; 413 beyond it',
          range: [1024, 67108864],
          default: '1048576',
        },
        {
          flag: '--max-body-in-flight BYTES',
          text: 'request-body bytes buffered by all requests at once; beyond it 503 with `Retry-After`',
          range: [65536, 17179869184],
          default: '67108864',
        },
        {
          flag: '--body-timeout SECONDS',
          text: 'a request body must arrive whole within this time; 408 otherwise',
          range: [1, 3600],
          default: '30',
        },
        {
          flag: '--instance-id ID',
          text: 'prefix of the 2025-11-25 session ids this instance mints (`ID.<uuid>`), so a balancer can route a session back to it; 1-32 letters, digits, `_` or `-`',
        },
        {
          flag: '--metrics [HOST:]PORT',
          text: 'Prometheus metrics at `http://HOST:PORT/metrics`, a listener of its own (never on the MCP address)',
        },
        {
          flag: '--drain-timeout SECONDS',
          text: 'on SIGTERM, stop taking requests and let those in flight finish for up to this long, then exit 0',
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
          text: 'tool calls running at once; the next ones wait (HTTP: before the request is handed to the server)',
          range: [1, 10000],
          default: '2 per core, 2 to 16, when every model is host or builtin; 16 when a provider may answer',
        },
        {
          flag: '--max-queued-calls N',
          text: 'tool calls waiting for a place; beyond it a call is refused: HTTP 503 with `Retry-After`, on stdio JSON-RPC error -32000',
          range: [0, 100000],
          default: '64',
        },
        {
          flag: '--max-calls-per-principal N',
          text: 'tool calls one principal may have running or waiting; beyond it HTTP 429 with `Retry-After` (-32000 on stdio)',
          range: [1, 100000],
          default: '32',
        },
        {
          flag: '--rate-limit N',
          text: 'tool calls per principal per minute, across every instance on `--store`; over it HTTP 429 with `Retry-After` (stdio: an `isError` result)',
          range: [1, 1000000],
          default: 'no limit',
        },
        {
          flag: '--principal-token-budget N',
          text: 'server-owned model tokens per principal per day, across the store; once spent, new calls get 429 (stdio: `isError`)',
          range: [1, 10000000000],
          default: 'no limit',
        },
      ],
    },
    {
      title: 'Tasks (docs/tasks.md)',
      flags: [
        {
          flag: '--tasks on|off',
          text:
            'the tasks extension (`io.modelcontextprotocol/tasks`): a call that declares it runs as a task the client ' +
            'polls; with a `redis://` store, tasks are kept in Redis and run by any instance',
          default: 'on',
        },
        {
          flag: '--task-ttl SECONDS',
          text: 'how long a task and its result are kept after it was created',
          range: [60, 604800],
          default: '3600',
        },
        {
          flag: '--max-tasks-per-principal N',
          text: 'unfinished tasks one principal may have; beyond it a call runs as an ordinary call',
          range: [1, 10000],
          default: '32',
        },
      ],
    },
    {
      title: '2025-11-25 clients',
      flags: [
        {
          flag: '--legacy on|off',
          text: 'serve 2025-11-25 clients (`initialize`, sessions, live sampling requests); `off` refuses `initialize` with -32022',
          default: 'on',
        },
        {
          flag: '--max-samples-per-call N',
          text: 'live sampling requests per tool call; past it the call ends with an `isError` result',
          range: [1, 100],
          default: '5',
        },
        {
          flag: '--max-sessions N',
          text: 'HTTP only: sessions held at once; `initialize` beyond it gets 503',
          range: [1, 10000],
          default: '100',
        },
        {
          flag: '--session-idle SECONDS',
          text: 'HTTP only: a session without traffic for this long is closed, and then gets 404',
          range: [1, 86400],
          default: '1800',
        },
        {
          flag: '--max-sessions-per-principal N',
          text: 'HTTP only: sessions one principal may hold (callers without a token share one quota); `initialize` beyond it gets 429',
          range: [1, 10000],
          default: 'a quarter of --max-sessions, at least 1',
        },
        {
          flag: '--session-lifetime SECONDS',
          text: 'HTTP only: no session lives longer, busy or not',
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
    'Tokens file (`--tokens-file`): one JSON object mapping each bearer token (16 characters or more) to its ' +
      'principal, e.g. `{"<token of 16+ characters>": "alice"}`. Principals: over HTTP the token\'s principal (or ' +
      '`anonymous`), on stdio the local OS user; a `requestState` minted for one principal is refused for another, ' +
      'and is accepted once.',
    'State keys (`--state-keys-file`, `MCP_MODEL_INPUT_STATE_KEYS`): `kid:base64` entries, one per line or ' +
      'comma-separated (`#` starts a comment line); kid is 1-32 letters, digits, `_` or `-`, the key 32 random bytes ' +
      '(`mcp-model-input keygen` prints one). The first entry mints, all verify: add a new key second, then move it ' +
      'first, then drop the old one.',
    'HTTP also answers `GET /healthz` (alive) and `GET /readyz` (keys loaded, store reachable, not draining: 200, ' +
      'else 503) outside the MCP endpoint.',
  ],
  environment: [
    {
      name: 'MCP_MODEL_INPUT_STATE_KEYS',
      text:
        'request-state keys, as in the keys file; without keys a random per-process key is used and retries must ' +
        'come back to this process',
    },
    ...PROVIDER_ENV,
  ],
  exit: [
    [0, 'stopped: stdin closed (stdio), or SIGTERM or SIGINT after the drain (HTTP)'],
    [1, 'a runtime failure'],
    [2, 'bad usage or configuration (caught at start-up, one line on stderr)'],
  ],
};

const KEYGEN: CommandHelp = {
  name: 'keygen',
  forms: [{ args: '[KID]', summary: 'print a fresh request-state key line (kid:base64)' }],
  about: [
    'Prints one `kid:base64` request-state key line (32 random bytes) for `MCP_MODEL_INPUT_STATE_KEYS` or ' +
      "`--state-keys-file` (see 'serve --help'). KID (1-32 letters, digits, `_` or `-`) defaults to a date stamp " +
      'like `k20261130`.',
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
    'Reads a workflow file (YAML or JSON, validated against schemas/workflow.schema.json: one model-assisted tool, ' +
      'its steps, its requirements) and prints a one-page architecture (decision, discovery contract, envelope ' +
      'errors, round table, retry contract, state protection, safety policy, removal plan), the findings and one ' +
      'verdict: direct inference, temporary MRTR compatibility, or no model required. Errors name the field; ' +
      'nothing is printed on stdout then. Examples: examples/plans/. docs/migrate.md',
  ],
  groups: [
    {
      title: 'Options',
      flags: [
        { flag: '--json', text: 'print the plan as JSON instead of Markdown' },
        {
          flag: '--from-audit REPORT.json',
          text: 'fill the round table from an `audit --json` report of the live tool (without FILE, the workflow is inferred from the report)',
        },
        {
          flag: '--from-source DIR',
          text:
            "infer the workflow of each sampling tool from a TypeScript server's code (its sampling steps, " +
            'capabilities, tools in sampling, loops); one plan per tool (several: Markdown one after another, JSON an array)',
        },
        { flag: '--tool NAME', text: 'with `--from-source`: plan only this tool' },
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
    'Rewrites the tool handlers of a TypeScript MCP server under DIR that ask for sampling (SDK v1 ' +
      '`createMessage`, SDK v2 `ctx.mcpReq.requestSampling`) into kit tools (`defineModelTool`, ' +
      "`registerModelTool`, `await ctx.sample('<step>', params)`) where it can prove that safe, wrapping effects " +
      'that would run again on every MRTR round in `ctx.once(...)`; every other call site is reported with its ' +
      "reason. Without `--write` it prints the unified diff and the report. Output follows the project's Prettier " +
      'settings. docs/migrate.md',
  ],
  groups: [
    {
      title: 'Options',
      flags: [
        { flag: '--write', text: 'edit the files in place (only in a clean git work tree)' },
        { flag: '--force', text: 'with `--write`: write even outside a clean git work tree' },
        { flag: '--json', text: 'print the report as JSON (per call site: status, reason, location, step)' },
        {
          flag: '--check',
          text: "type-check the result (`tsc --noEmit` with each file's `tsconfig.json`, in memory) and list the errors the rewrite adds",
        },
        HELP_FLAG,
      ],
    },
  ],
  exit: [
    [0, 'done'],
    [1, '`--check` found errors the rewrite adds, or `--write` was refused'],
    [2, 'bad usage'],
  ],
};

const STDIO_TARGET: FlagHelp = {
  flag: '--stdio "COMMAND"',
  text: 'spawn COMMAND (split like a shell would, but run without one)',
};

/** How `call` and `discover` reach a server. */
const HOST_TARGET: FlagGroup = {
  title: 'Target (exactly one of --stdio, --url)',
  flags: [
    STDIO_TARGET,
    { flag: '--url URL', text: 'a Streamable HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp`' },
    { flag: '--token-env NAME', text: 'HTTP only: send the bearer token held in environment variable NAME' },
    {
      flag: '--server-stderr MODE',
      text: "stdio only: where the server's stderr goes",
      default: 'prefixed',
      values: [
        ['prefixed', 'its lines, each prefixed, shown when no dialog is open'],
        ['log:FILE', 'appended to FILE'],
        ['ignore', 'dropped'],
        ['inherit', 'the server writes to your terminal as is'],
      ],
    },
  ],
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
    'Probes a live MCP server against the 2026-07-28 rules: each pass, fail or not applicable, with its ' +
      'specification page (discovery and cache hints, `tools/list` determinism, the exact error codes, ' +
      'notifications, and with `--tool` its MRTR behaviour, driven by a scripted built-in host model: no keys, no ' +
      'network). docs/migrate.md',
  ],
  groups: [
    {
      title: 'Target (exactly one)',
      flags: [
        STDIO_TARGET,
        { flag: '--url URL', text: 'a Streamable HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp`' },
      ],
    },
    {
      title: 'Options',
      flags: [
        { flag: '--tool NAME', text: "drive this tool's flow: capability gate, rounds, state checks" },
        { flag: '--args JSON', text: 'its arguments, a JSON object', default: '{}' },
        {
          flag: '--answers FILE',
          text: 'scripted answers, a JSON object: `{"<input key>": "text" | ["round 1", "round 2", ...]}`',
        },
        {
          flag: '--header "Name: value"',
          text: 'HTTP only: an extra request header (e.g. Authorization)',
          repeatable: true,
        },
        { flag: '--timeout MS', text: 'per-request timeout', range: [100, 600000], default: '10000' },
        { flag: '--no-interop', text: 'skip the official-client connection check' },
        { flag: '--json', text: 'print the report as JSON (for CI and `plan --from-audit`)' },
        HELP_FLAG,
      ],
    },
  ],
  exit: [
    [0, 'no rule failed'],
    [1, 'at least one rule failed'],
    [2, 'bad usage (`--args` the tool refuses included)'],
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
    'Calls one tool as a host. Model input the server asks for (MRTR rounds, or live requests from a 2025-11-25 ' +
      'server) is checked against what the host declared, validated, approved, kept to budgets, a round cap and a ' +
      "rate limit, answered by the host's model, and the call retried with the server's `requestState` echoed byte " +
      'for byte. Form-mode elicitation is answered by `--elicit`, `roots/list` by `--root`. The same runtime is a ' +
      'library: docs/host.md.',
  ],
  groups: [
    HOST_TARGET,
    {
      title: 'Options',
      flags: [
        { flag: '--args JSON', text: "the tool's arguments, a JSON object", default: '{}' },
        {
          flag: '--host-model SPEC',
          text:
            "the host's models: comma-separated `SOURCE[=cheap|strong|balanced]`, SOURCE one of `builtin`, " +
            '`scripted:FILE`, `openai:MODEL`, `anthropic:MODEL` (providers read the environment variables of `serve`)',
          default: 'builtin',
        },
        {
          flag: '--approve MODE',
          text: 'who approves each sampling round',
          default: 'prompt',
          values: [
            ['prompt', 'a terminal dialog per round'],
            ['auto', 'approve every round'],
            ['deny', 'decline every round'],
            ['rules:FILE', 'allow or deny by server, tool and input key (docs/host.md)'],
          ],
        },
        {
          flag: '--elicit MODE',
          text: 'who answers form-mode elicitation; elicitation is declared in every mode',
          default: 'prompt on a terminal, auto-decline otherwise',
          values: [
            ['prompt', 'a terminal dialog'],
            ['auto-decline', 'decline every request'],
            [
              'rules:FILE',
              'a JSON object of field name to value: accepted when every required field has a fitting value, else declined',
            ],
          ],
        },
        { flag: '--max-rounds N', text: '`input_required` rounds per call', range: [1, 100], default: '5' },
        {
          flag: '--on-deny stop|fallback',
          text:
            'when a sampling round is declined: `stop` (exit 3), or make the call again without declaring sampling ' +
            'so that a server with a model of its own serves it (2025-11-25: the server got -1; its result is shown)',
          default: 'stop',
        },
        {
          flag: '--audit FILE',
          text: 'append one JSON line per model request to FILE (`-` for stderr); never prompt or response text',
        },
        {
          flag: '--audit-max-bytes N',
          text: 'rotate the audit file to FILE.1 when it would pass N bytes',
          range: [1024],
          default: '67108864 (64 MiB)',
        },
        { flag: '--root DIR', text: 'answer `roots/list` with these directories (declares roots)', repeatable: true },
        {
          flag: '--no-tasks',
          text:
            'do not declare the tasks extension (`io.modelcontextprotocol/tasks`); by default a server may run the ' +
            "call as a task, which is polled at the server's interval (its status on stderr) and cancelled on Ctrl-C",
        },
        { flag: '--trace', text: 'one stderr line per protocol message (ids, methods, keys, sizes; no text)' },
        { flag: '--json', text: 'print `{result, rounds, usage}` as JSON' },
        HELP_FLAG,
      ],
    },
  ],
  notes: [
    'Ctrl-C in a question stops the call (the rest of the round is not asked). A stdio server runs in a session of ' +
      'its own: it cannot open your terminal (`/dev/tty`).',
  ],
  exit: [
    [0, 'success'],
    [1, 'the tool answered with an error result'],
    [2, 'bad usage or configuration'],
    [3, 'denied (the approval said no)'],
    [
      4,
      "stopped by a host policy (capability, validation, input requests per round, round cap, budget, rate limit, response size, state size) or the host's model failed",
    ],
    [5, 'protocol or connection error'],
    [6, 'the result was printed cut (`--json`: nested deeper than 64 levels)'],
    [130, 'cancelled (Ctrl-C; a task is sent `tasks/cancel`)'],
  ],
};

const DISCOVER: CommandHelp = {
  name: 'discover',
  forms: [{ args: '(--stdio "COMMAND" | --url URL) [options]', summary: 'show what a server says it is and offers' }],
  about: [
    'Asks a server what it is and what it offers: `server/discover` on 2026-07-28 servers, `initialize` on ' +
      "2025-11-25 ones. Prints the server's name and version (unverified: its own claim), the revision, its " +
      'capabilities, the client capabilities it declared and the tools. A server may list more tools to a client ' +
      'that declares more.',
  ],
  groups: [
    HOST_TARGET,
    {
      title: 'Options',
      flags: [
        {
          flag: '--declare LIST',
          text: 'client capabilities to declare, comma-separated: `sampling`, `elicitation`, `roots`; nothing is answered, no tool is called',
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
export const SUMMARIZE_USAGE = renderHelp(SUMMARIZE, COMMAND_HELP);
export const ASK_USAGE = renderHelp(ASK, COMMAND_HELP);
export const REVIEW_USAGE = renderHelp(REVIEW, COMMAND_HELP);
export const SERVE_USAGE = renderHelp(SERVE, COMMAND_HELP);
export const KEYGEN_USAGE = renderHelp(KEYGEN, COMMAND_HELP);
export const PLAN_USAGE = renderHelp(PLAN, COMMAND_HELP);
export const MIGRATE_USAGE = renderHelp(MIGRATE, COMMAND_HELP);
export const AUDIT_USAGE = renderHelp(AUDIT, COMMAND_HELP);
export const CALL_USAGE = renderHelp(CALL, COMMAND_HELP);
export const DISCOVER_USAGE = renderHelp(DISCOVER, COMMAND_HELP);
