import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackServer {
  url: string;
  /** Destroys open sockets (keep-alive ones included) and stops listening. */
  close: () => Promise<void>;
}

/** An HTTP server on 127.0.0.1 at a free port for a test upstream; a handler that throws drops
 *  the connection, as a broken service would. */
export async function listenOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
