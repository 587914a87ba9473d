/** The `--help` texts. Kept beside the parsers so they cannot drift apart. */
export const MAIN_USAGE = `mcp-model-input — model input for MCP tools on the stateless 2026-07-28 protocol

Usage:
  mcp-model-input summarize [DIR] [options]   summarize a repository in-process (default model: builtin)
  mcp-model-input ask DIR "QUESTION" [options]
                                              answer a question about a repository, citing path:lines
  mcp-model-input review [DIR] [--base REF --head REF] [options]
                                              review the working tree's changes, or base..head
  mcp-model-input serve (--stdio | --http [HOST:]PORT) [options]
                                              serve summarize_repo, ask_repo and review_changes over MCP
  mcp-model-input keygen [KID]                print a fresh request-state key line (kid:base64)
  mcp-model-input plan FILE [--json]          plan a model-assisted tool: sampling or not, and how
  mcp-model-input plan --from-source DIR [--tool NAME] [--json]
                                              the same plan for a server's tools, inferred from its code
  mcp-model-input migrate DIR [--write] [--json] [--check]
                                              rewrite a server's sampling tool handlers onto the kit
  mcp-model-input audit (--stdio "COMMAND" | --url URL) [--tool NAME --args JSON]
                                              probe a live MCP server against the 2026-07-28 rules
  mcp-model-input call TOOL (--stdio "COMMAND" | --url URL) [--args JSON] [options]
                                              call a tool as a host that answers model input safely
  mcp-model-input discover (--stdio "COMMAND" | --url URL)
                                              show what a server says it is and offers
  mcp-model-input --help | --version

Run 'mcp-model-input <command> --help' for a command's options.`;

export const SERVE_USAGE = `Usage: mcp-model-input serve (--stdio | --http [HOST:]PORT) [options]

Serves the summarize_repo, ask_repo and review_changes tools (protocol revision 2026-07-28; stateless, no sessions). Clients
pinned to 2025-11-25 that open with initialize are served by the legacy adapter on the same
command and endpoint: a session, and live sampling/createMessage requests (--legacy off refuses them).
Secret-bearing files (.env, id_rsa, *.pem, .npmrc, kubeconfig…) are never read, and secrets inside other
files are replaced by [redacted: <kind>] before any model sees them (docs/security.md).

Transport (exactly one):
  --stdio                    newline-delimited JSON-RPC on stdin/stdout (logs go to stderr)
  --http [HOST:]PORT         Streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1;
                             PORT 0 picks a free port)

Options:
  --root DIR                 the only tree the tool may read (default: the current directory)
  --tools NAMES              the shipped tools to serve, comma-separated: summarize_repo, ask_repo,
                             review_changes (default: all three; none when --tool-module is given)
  --tool-module FILE         repeatable: serve the tools a module exports by default (a tool made with
                             defineModelTool from mcp-model-input/tool, or an array of them; docs/writing-tools.md)
  --model SPEC               where model input comes from (default: builtin)
                               builtin          the server's built-in heuristic model (no keys, no network)
                               openai:MODEL     an OpenAI-compatible Chat Completions endpoint (OpenAI,
                                                Ollama, vLLM, LM Studio, llama.cpp) -- OPENAI_BASE_URL
                               anthropic:MODEL  the Anthropic Messages API -- ANTHROPIC_API_KEY
                               PROVIDER:CHEAP+STRONG  two models: pick_files on CHEAP, summary on STRONG
                               host             the client's model over MRTR (needs the sampling capability;
                                                clients without it get -32021)
                               host,openai:MODEL      host when the request declares sampling, else the next;
                                                also answers a step whose host answer is unusable (host,builtin too)
                               pick=builtin,summary=anthropic:MODEL   one source per step
                               TOOL.STEP=LIST   one step of one tool (explain_file.explain=host,builtin)
  --model-timeout SECONDS    per provider request, 1-3600 (default: 60)
  --model-retries N          retries on 429, 408, 409, 5xx, timeouts and connection errors, 0-10,
                             honouring Retry-After up to 30 s (default: 2)
  --max-model-calls N        server-owned model calls per tool call, 1-100 (default: 6)
  --max-model-tokens N       input plus output tokens per tool call, 1000-100000000 (default: 200000)
  --model-deadline SECONDS   wall-clock time for all model calls of one tool call, retries and waits
                             included, 1-3600 (default: 180)
  --model-preferences send|omit
                             whether sampling requests to the host carry modelPreferences (default: send);
                             omit for hosts that fail on them (fast-agent 0.10: docs/model-sources.md)
  --state-keys-file FILE     request-state keys, one 'kid:base64' per line (first mints, all verify);
                             overrides MCP_MODEL_INPUT_STATE_KEYS
  --state-ttl SECONDS        lifetime of a minted requestState, 1-86400 (default: 300)
  --max-rounds N             input_required rounds allowed per tool call, 2-100 (default: 6)
  --pick-prompt-bytes N      size of the pick_files prompt in bytes, 1024-1048576 (default: 24576)
  --read-bytes N             file content in the summary prompt, bytes in all, 1024-16777216 (default: 49152)
  --result-tokens N          the summary text is cut to this many tokens, 100-1000000 (default: 25000)
  --allow-secret-file GLOB   repeatable: let a file of the secret-bearing deny list be read (gitignore
                             syntax, relative to the root, e.g. 'fixtures/*.pem'); its content is still
                             redacted (see docs/security.md)
  --tokens-file FILE         HTTP only: {"<bearer token>": "<principal>"}; requests without a known
                             token get 401
  --allow-remote             HTTP only: allow a non-loopback HOST without --tokens-file
  --allow-host NAME[:PORT]   HTTP only, repeatable: also accept this Host header (DNS-rebinding allow-list;
                             a NAME without PORT is accepted bare, as a client of a TLS proxy on 443 sends
                             it, and on serve's port; loopback names are accepted on loopback binds, and
                             this machine's names and addresses on 0.0.0.0 / ::)
  --max-body BYTES           HTTP only: largest accepted request body, 1024-67108864 (default: 1048576)
  --max-body-in-flight BYTES HTTP only: request-body bytes buffered by all requests at once,
                             65536-17179869184; beyond it 503 with Retry-After (default: 67108864)
  --body-timeout SECONDS     HTTP only: a request body must arrive whole within this time, 1-3600;
                             408 otherwise (default: 30)
  --max-calls N              tool calls running at once, 1-10000 (default: 2 per core, 2 to 16, when
                             every model is host or builtin; 16 when a provider may answer); the next
                             ones wait (HTTP: before the request is handed to the server)
  --max-queued-calls N       tool calls waiting for a place, 0-100000 (default: 64); beyond it a call is
                             refused: HTTP 503 with Retry-After, on stdio JSON-RPC error -32000
  --max-calls-per-principal N
                             tool calls one principal may have running or waiting, 1-100000
                             (default: 32); beyond it HTTP 429 with Retry-After (-32000 on stdio)
  --legacy on|off            serve 2025-11-25 clients (initialize, sessions, live sampling requests);
                             off refuses initialize with -32022 (default: on)
  --max-samples-per-call N   2025-11-25 clients: live sampling requests per tool call, 1-100; past it
                             the call ends with an isError result (default: 5)
  --max-sessions N           HTTP only, 2025-11-25 clients: sessions held at once, 1-10000; initialize
                             beyond it gets 503 (default: 100)
  --session-idle SECONDS     HTTP only, 2025-11-25 clients: a session without traffic for this long is
                             closed and then gets 404, 1-86400 (default: 1800)
  --max-sessions-per-principal N
                             HTTP only, 2025-11-25 clients: sessions one principal may hold, 1-10000;
                             callers without a token share one quota; initialize beyond it gets 429
                             (default: a quarter of --max-sessions, at least 1)
  --session-lifetime SECONDS HTTP only, 2025-11-25 clients: no session lives longer, busy or not,
                             1-604800 (default: 3600)
  --store URL                where single-use request state and per-principal counts live:
                               memory:          this process only (default; one instance)
                               redis://HOST:PORT[/DB]  shared by every instance (a fleet); if Redis is
                                                unreachable, MRTR rounds are refused and /readyz says so
  --tasks on|off             the tasks extension (io.modelcontextprotocol/tasks): a call that declares it
                             runs as a task the client polls (default: on); with a redis:// --store,
                             tasks are kept in Redis and run by any instance (BullMQ)
  --task-ttl SECONDS         how long a task and its result are kept after it was created, 60-604800
                             (default: 3600)
  --max-tasks-per-principal N
                             unfinished tasks one principal may have, 1-10000; beyond it a call runs
                             as an ordinary (non-task) call (default: 32)
  --rate-limit N             tool calls per principal per minute, across every instance on --store,
                             1-1000000; over it: HTTP 429 with Retry-After (stdio: an isError result)
  --principal-token-budget N server-owned model tokens per principal per day, across the store,
                             1-10000000000; once spent, new calls get 429 (stdio: isError)
  --instance-id ID           HTTP only: prefix of the 2025-11-25 session ids this instance mints
                             (ID.<uuid>), so a balancer can route a session back to it
  --metrics [HOST:]PORT      HTTP only: Prometheus metrics at http://HOST:PORT/metrics, a listener of
                             its own (never on the MCP address)
  --drain-timeout SECONDS    HTTP only: on SIGTERM, stop taking requests and let those in flight finish
                             for up to this long, then exit 0, 0-3600 (default: 30)
  --quiet                    only warnings on stderr (hides the one line per model call)
  -h, --help                 show this help

HTTP also answers GET /healthz (alive) and GET /readyz (keys loaded, store reachable, not draining:
200, else 503) outside the MCP endpoint.

Environment:
  MCP_MODEL_INPUT_STATE_KEYS comma-separated 'kid:base64' keys (32 random bytes each); without keys a
                             random per-process key is used and retries must come back to this process
  OPENAI_API_KEY             key for openai:MODEL (optional when OPENAI_BASE_URL names a server
                             that takes none, such as Ollama)
  OPENAI_BASE_URL            OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1
                             (default: https://api.openai.com/v1)
  ANTHROPIC_API_KEY          key for anthropic:MODEL (required)
  ANTHROPIC_BASE_URL         Messages API endpoint (default: https://api.anthropic.com)`;

export const SUMMARIZE_USAGE = `Usage: mcp-model-input summarize [DIR] [options]

Summarizes DIR (default: the current directory) with the summarize_repo tool, run in-process
and driven by the official MCP client (pinned to 2026-07-28). With the default model, builtin, the
server answers in one call on its built-in heuristic model: no keys, no network. With --model host
the server runs its MRTR rounds and the client answers the sampling requests with the built-in model.
Every model, built-in or not, also gets facts computed from the whole listing: languages by files and
bytes, layout, manifests and entry points (in the prompts, and under "facts" in --json).

Options:
  --path SUB                 summarize only this sub-directory of DIR
  --audience TEXT            who the summary is for (default: developer)
  --max-files N              how many files the model may pick, 1-8 (default: 3)
  --mode pick|explore        pick (default): the model picks from a ranked list of files; explore: the
                             model walks the repository with read-only tools (list_directory, read_file,
                             search) before it summarizes, and the output lists the calls it made
  --pick-prompt-bytes N      size of the pick_files prompt in bytes, 1024-1048576 (default: 24576)
  --read-bytes N             file content in the summary prompt, bytes in all, 1024-16777216 (default: 49152)
  --result-tokens N          the summary text is cut to this many tokens, 100-1000000 (default: 25000)
  --allow-secret-file GLOB   repeatable: let a file of the secret-bearing deny list be read (gitignore
                             syntax, relative to the root, e.g. 'fixtures/*.pem'); its content is still
                             redacted (see docs/security.md)
  --json                     print the structured result as JSON instead of the summary text
  --trace                    run the call over MCP (the official client and the server in-process) and
                             print each exchange to stderr (id, method, resultType, input keys)
  --quiet                    no informational lines on stderr (such as the one line per model call)
  --model SPEC               as for 'serve --help' (default: builtin): builtin, openai:MODEL,
                             anthropic:MODEL, PROVIDER:CHEAP+STRONG, host, host,openai:MODEL,
                             pick=SOURCE,summary=SOURCE
  --model-timeout SECONDS    per provider request, 1-3600 (default: 60)
  --model-retries N          retries on 429, 408, 409, 5xx, timeouts and connection errors, 0-10
                             (default: 2)
  --max-model-calls N        server-owned model calls per run, 1-100 (default: 6)
  --max-model-tokens N       input plus output tokens per run, 1000-100000000 (default: 200000)
  --model-deadline SECONDS   wall-clock time for all model calls of the run, 1-3600 (default: 180)
  -h, --help                 show this help

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL (see 'serve --help').

Secrets: files named like credentials (.env, id_rsa, *.pem, .npmrc, .aws/credentials, kubeconfig,
*.tfstate…) are never listed, shown to a model or read; secrets inside other files are replaced by
[redacted: <kind>] before any model sees them, and the result says how many were.

Exit status: 0 success, 1 the tool reported an error, 2 bad usage or configuration.`;

export const KEYGEN_USAGE = `Usage: mcp-model-input keygen [KID]

Prints one 'kid:base64' request-state key line (32 random bytes) for MCP_MODEL_INPUT_STATE_KEYS
or --state-keys-file. KID defaults to a date stamp like k20261130.`;

export const PLAN_USAGE = `Usage: mcp-model-input plan FILE [--json]
       mcp-model-input plan --from-audit REPORT.json [FILE] [--json]
       mcp-model-input plan --from-source DIR [--tool NAME] [--json]
       mcp-model-input plan --schema

Reads a workflow file (YAML or JSON: one model-assisted tool, its steps, its requirements) and prints
a one-page architecture: the decision, the discovery contract, the request envelope and its errors,
the round table, the retry contract, state protection, the safety policy and the removal plan, then
the findings (hard rejects, refusals) and one verdict: direct inference, temporary MRTR
compatibility, or no model required. The file is validated against the published JSON Schema
(schemas/workflow.schema.json); errors name the field and nothing is printed on stdout.

Options:
  --json                     print the plan as JSON instead of Markdown
  --from-audit REPORT.json   fill the round table from an 'audit --json' report of the live tool
                             (without FILE, the workflow is inferred from the report)
  --from-source DIR          infer the workflow of each sampling tool from a TypeScript server's code
                             (its sampling steps, capabilities, tools in sampling, loops); one plan
                             per tool (several: Markdown one after another, JSON an array)
  --tool NAME                with --from-source: plan only this tool
  --schema                   print the workflow JSON Schema
  -h, --help                 show this help

Exit status: 0 a plan was printed, 2 bad usage, an invalid workflow or report, or no sampling tool
in DIR.`;

export const MIGRATE_USAGE = `Usage: mcp-model-input migrate DIR [--write [--force]] [--json] [--check]

Finds the tool handlers of a TypeScript MCP server under DIR that ask for sampling (SDK v1
server.createMessage / mcpServer.server.createMessage / extra.sendRequest sampling/createMessage,
SDK v2 ctx.mcpReq.requestSampling) and rewrites each one it can prove safe into a kit tool
(defineModelTool) registered with registerModelTool on the same server: each sampling call becomes
await ctx.sample('<step>', params). Effects that would run again on every MRTR round (file writes,
network and database calls, clocks, randomness, writes to variables outside the handler) are wrapped
in ctx.once(...) where that is mechanical; otherwise the handler is left unchanged and reported.
Hand-built inputRequired(...) state machines are reported, not rewritten. Without --write it prints
the unified diff and the report; nothing is written. Output follows the project's Prettier settings.

Options:
  --write                    edit the files in place (only in a clean git work tree)
  --force                    with --write: write even outside a clean git work tree
  --json                     print the report as JSON (per call site: status, reason, location, step)
  --check                    type-check the result (tsc --noEmit with each file's tsconfig.json, in
                             memory) and list the errors the rewrite adds
  -h, --help                 show this help

Exit status: 0 done, 1 --check found errors the rewrite adds or --write was refused, 2 bad usage.`;

export const AUDIT_USAGE = `Usage: mcp-model-input audit (--stdio "COMMAND" | --url URL) [options]

Probes a live MCP server against the 2026-07-28 rules and reports each as pass, fail or not
applicable, with the specification page it comes from: discovery and cache hints, tools/list
determinism, the exact -32602/-32022/-32021/-32601 errors, unanswered notifications, and for a named
tool its MRTR behaviour, driven by a scripted host model (built-in heuristic; no keys, no network).

Target (exactly one):
  --stdio "COMMAND"          spawn COMMAND (split like a shell would, but run without one)
  --url URL                  a Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp

Options:
  --tool NAME                drive this tool's flow: capability gate, rounds, state checks
  --args JSON                its arguments, a JSON object (default: {})
  --answers FILE             scripted answers: {"<input key>": "text" | ["round 1", "round 2", ...]}
  --header "Name: value"     HTTP only, repeatable: an extra request header (e.g. Authorization)
  --timeout MS               per-request timeout (default: 10000)
  --no-interop               skip the official-client connection check
  --json                     print the report as JSON (for CI and 'plan --from-audit')
  -h, --help                 show this help

Exit status: 0 no rule failed, 1 at least one rule failed, 2 bad usage.`;

export const CALL_USAGE = `Usage: mcp-model-input call TOOL (--stdio "COMMAND" | --url URL) [options]

Calls one tool as a host: when the server asks for model input (an embedded
sampling/createMessage in an input_required result, or a live request from a 2025-11-25
server), the host checks it against what it declared, validates it, asks for approval, keeps
to its budgets, round cap and rate limit, answers with its own model, and retries the call with
the same arguments, the answers and the server's requestState echoed byte for byte.

Target (exactly one):
  --stdio "COMMAND"          spawn COMMAND (split like a shell would, but run without one)
  --url URL                  a Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp
  --token-env NAME           HTTP only: send the bearer token held in environment variable NAME
  --server-stderr MODE       stdio only: the server's stderr — prefixed (default: its lines, each
                             prefixed, shown when no dialog is open), log:FILE (appended to FILE),
                             ignore, or inherit (the server writes to your terminal as is)

Options:
  --args JSON                the tool's arguments, a JSON object (default: {})
  --host-model SPEC          the host's models: comma-separated SOURCE[=cheap|strong|balanced],
                             SOURCE one of builtin, scripted:FILE, openai:MODEL, anthropic:MODEL
                             (default: builtin; providers read OPENAI_API_KEY / ANTHROPIC_API_KEY)
  --approve MODE             prompt (default: a terminal dialog per round), auto, deny, or
                             rules:FILE (allow/deny by server, tool and input key)
  --elicit MODE              who answers form-mode elicitation: prompt (a terminal dialog), auto-decline,
                             or rules:FILE (a JSON object of field name to value: accepted when every
                             required field has a fitting value, else declined); elicitation is declared
                             in every mode (default: prompt on a terminal, auto-decline otherwise)
  --max-rounds N             input_required rounds per call, 1-100 (default: 5)
  --on-deny stop|fallback    when a sampling round is declined: stop (default, exit 3), or make the
                             call again without declaring sampling so that a server with a model of
                             its own serves it (2025-11-25: the server got -1; its result is shown)
  --audit FILE               append one JSON line per model request to FILE ('-' for stderr);
                             never prompt or response text
  --audit-max-bytes N        rotate the audit file to FILE.1 when it would pass N bytes,
                             1024 or more (default: 67108864, 64 MiB)
  --root DIR                 repeatable: answer roots/list with these directories (declares roots)
  --no-tasks                 do not declare the tasks extension (io.modelcontextprotocol/tasks); by
                             default a server may run the call as a task, which is polled at the
                             server's interval (its status on stderr) and cancelled on Ctrl-C
  --trace                    one stderr line per protocol message (ids, methods, keys, sizes)
  --json                     print {result, rounds, usage} as JSON
  -h, --help                 show this help

Ctrl-C in a question stops the call (the rest of the round is not asked).
A stdio server runs in a session of its own: it cannot open your terminal (/dev/tty).

Exit status: 0 success, 1 the tool answered with an error result, 2 bad usage or configuration,
3 denied (the approval said no), 4 stopped by a host policy (capability, validation, input
requests per round, round cap, budget, rate limit, response size, state size) or the host's model
failed, 5 protocol or connection error, 6 the result was printed cut (--json: nested deeper than
64 levels), 130 cancelled (Ctrl-C; a task is sent tasks/cancel).`;

export const DISCOVER_USAGE = `Usage: mcp-model-input discover (--stdio "COMMAND" | --url URL) [--declare LIST] [--json]

Asks a server what it is and what it offers: server/discover on 2026-07-28 servers, initialize
on 2025-11-25 ones. Prints the server's name and version (unverified: its own claim), the
revision, its capabilities, the client capabilities it declared and the tools. A server may list
more tools to a client that declares more.

  --stdio "COMMAND"          spawn COMMAND (split like a shell would, but run without one)
  --url URL                  a Streamable HTTP endpoint
  --token-env NAME           HTTP only: send the bearer token held in environment variable NAME
  --server-stderr MODE       stdio only: prefixed (default), log:FILE, ignore or inherit (see call)
  --declare LIST             client capabilities to declare, comma-separated: sampling, elicitation,
                             roots (default: none); nothing is answered, no tool is called
  --json                     print the discovery as JSON
  -h, --help                 show this help

Exit status: 0 success, 2 bad usage, 5 protocol or connection error.`;

/** The options and exit codes `ask` and `review` share (runToolCommand in toolCommand.ts). */
const LOCAL_TOOL_OPTIONS_USAGE = `  --json                     print the structured result as JSON instead of the text
  --quiet                    no informational lines on stderr (such as the one line per model call)
  --model SPEC               as for 'serve --help' (default: builtin); a local run has no client, so
                             'host' is passed over for the next source of the list
  --model-timeout SECONDS    per provider request, 1-3600 (default: 60)
  --model-retries N          retries on 429, 408, 409, 5xx, timeouts and connection errors, 0-10
                             (default: 2)
  --max-model-calls N        server-owned model calls per run, 1-100 (default: 6)
  --max-model-tokens N       input plus output tokens per run, 1000-100000000 (default: 200000)
  --model-deadline SECONDS   wall-clock time for all model calls of the run, 1-3600 (default: 180)
  --allow-secret-file GLOB   repeatable: let a file of the secret-bearing deny list be read (its content
                             is still redacted; docs/security.md)
  -h, --help                 show this help

Exit codes: 0 done, 1 the tool failed, 2 usage (including arguments the tool refuses).`;

export const ASK_USAGE = `Usage: mcp-model-input ask DIR "QUESTION" [options]

Answers QUESTION about the repository in DIR with the ask_repo tool, run in-process: the model chooses
the files to read and answers citing path:line-range; a citation of lines it never read is removed and
counted. With the default model, builtin, no language model answers: the passages most likely to
answer, found by the question's terms, each cited (docs/ask-repo.md).

Options:
  --max-files N              files read at most, 1-20 (default: 6)
  --mode pick|explore        pick (default): the model chooses from ranked candidates; explore: it lists
                             directories and reads files on its own, a few turns
${LOCAL_TOOL_OPTIONS_USAGE}`;

export const REVIEW_USAGE = `Usage: mcp-model-input review [DIR] [--base REF --head REF] [options]

Reviews the changes of the git repository in DIR (default: the current directory) with the
review_changes tool, run in-process: the working tree (staged and unstaged) against HEAD, or
base..head. Findings (severity, path:line, message) and a verdict; deterministic checks on every
model: a secret added (redacted, reported), a large binary added, a lock file changed without its
manifest, conflict markers, debug statements. A secret-bearing file's diff is never shown
(docs/review-changes.md).

Options:
  --base REF                 the commit to review from (default: HEAD, against the working tree)
  --head REF                 the commit to review up to (needs --base)
  --path PATH                repeatable: only these paths
  --focus TEXT               what the model should look at most closely
${LOCAL_TOOL_OPTIONS_USAGE}`;
