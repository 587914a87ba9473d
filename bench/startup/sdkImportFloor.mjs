// The floor the SDK itself sets: a process that only imports the two SDK packages and exits.
await import('@modelcontextprotocol/server');
await import('@modelcontextprotocol/client');
