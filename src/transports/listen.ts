/** Binding a Node server, the one way both listeners (the MCP endpoint, the metrics endpoint) do it. */
import type { AddressInfo, Server } from 'node:net';

/** Listens on `host:port` (0 picks a free port); resolves with the bound port and the host as a URL writes it. */
export async function listenOn(server: Server, host: string, port: number): Promise<{ port: number; urlHost: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return { port: address.port, urlHost: host.includes(':') ? `[${host}]` : host };
}
