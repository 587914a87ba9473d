/** The `--help` texts. Kept beside the parsers so they cannot drift apart. */
export const MAIN_USAGE = `mcp-model-input — model input for MCP tools on the stateless 2026-07-28 protocol

Usage:
  mcp-model-input summarize [DIR] [options]   summarize a repository on the built-in model (in-process)
  mcp-model-input serve (--stdio | --http [HOST:]PORT) [options]
                                              serve the summarize_repo tool over MCP
  mcp-model-input keygen [KID]                print a fresh request-state key line (kid:base64)
  mcp-model-input --help | --version

Run 'mcp-model-input <command> --help' for a command's options.`;

export const SERVE_USAGE = `Usage: mcp-model-input serve (--stdio | --http [HOST:]PORT) [options]

Serves the summarize_repo tool (protocol revision 2026-07-28; stateless, no sessions).

Transport (exactly one):
  --stdio                    newline-delimited JSON-RPC on stdin/stdout (logs go to stderr)
  --http [HOST:]PORT         Streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1;
                             PORT 0 picks a free port)

Options:
  --root DIR                 the only tree the tool may read (default: the current directory)
  --model SPEC               where model input comes from (default: host)
                               host      the client's model over MRTR (needs the sampling capability)
                               builtin   the server's built-in heuristic model (no keys, no network)
                               host,builtin          host when the request declares sampling, else builtin
                               pick=builtin,summary=host   one source per step
  --state-keys-file FILE     request-state keys, one 'kid:base64' per line (first mints, all verify);
                             overrides MCP_MODEL_INPUT_STATE_KEYS
  --state-ttl SECONDS        lifetime of a minted requestState (default: 300)
  --max-rounds N             input_required rounds allowed per tool call (default: 6)
  --tokens-file FILE         HTTP only: {"<bearer token>": "<principal>"}; requests without a known
                             token get 401
  --allow-remote             HTTP only: allow a non-loopback HOST without --tokens-file
  --max-body BYTES           HTTP only: largest accepted request body (default: 1048576)
  --quiet                    only warnings on stderr
  -h, --help                 show this help

Environment:
  MCP_MODEL_INPUT_STATE_KEYS comma-separated 'kid:base64' keys (32 random bytes each); without keys a
                             random per-process key is used and retries must come back to this process`;

export const SUMMARIZE_USAGE = `Usage: mcp-model-input summarize [DIR] [options]

Summarizes DIR (default: the current directory) with the summarize_repo tool, run in-process:
the official MCP client (pinned to 2026-07-28) drives the server's MRTR rounds and answers its
sampling requests with the built-in heuristic model. No keys, no network.

Options:
  --path SUB                 summarize only this sub-directory of DIR
  --audience TEXT            who the summary is for (default: developer)
  --max-files N              how many files the model may pick, 1-8 (default: 3)
  --json                     print the structured result as JSON instead of the summary text
  --trace                    print each exchange to stderr (id, method, resultType, input keys)
  --quiet                    no informational lines on stderr
  -h, --help                 show this help

Exit status: 0 success, 1 the tool reported an error, 2 bad usage or configuration.`;

export const KEYGEN_USAGE = `Usage: mcp-model-input keygen [KID]

Prints one 'kid:base64' request-state key line (32 random bytes) for MCP_MODEL_INPUT_STATE_KEYS
or --state-keys-file. KID defaults to a date stamp like k20261130.`;
