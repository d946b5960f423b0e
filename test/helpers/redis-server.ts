/**
 * A real redis-server (the Debian package) on a free loopback port, with no persistence,
 * started by a test and ended by its PID.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect, createServer } from 'node:net';

export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  /** Ends it (SIGKILL); start() brings a fresh, empty one back on the same port. */
  kill(): Promise<void>;
  start(): Promise<void>;
}

export function redisAvailable(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: 0,
    async start() {
      const c = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = c;
      server.pid = c.pid ?? 0;
      let err = '';
      c.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
      c.stdout?.on('data', (d: Buffer) => (err += d.toString('utf8')));
      const end = Date.now() + 10_000;
      while (!(await answers(port))) {
        if (c.exitCode !== null) throw new Error(`redis-server exited (${c.exitCode}): ${err}`);
        if (Date.now() > end) throw new Error(`redis-server did not answer on ${port}: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const gone = new Promise((r) => c.once('exit', r));
      process.kill(server.pid, 'SIGKILL');
      await gone;
    },
  };
  await server.start();
  return server;
}

/** Whether something answers PING on the port. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => s.write('PING\r\n'));
    s.once('data', (d) => {
      s.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    s.once('error', () => resolve(false));
  });
}
