import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on a free loopback port in front of a real server, that a test cuts and restores to make that
 * server unreachable without touching it (the shared infrastructure keeps serving everyone else). While cut,
 * open connections are dropped and new ones are closed as soon as they arrive.
 */
export class TcpProxy {
  private cutOff = false;
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server, readonly port: number) {}

  static async start(target: { host: string; port: number }, options: { cut?: boolean } = {}): Promise<TcpProxy> {
    let proxy: TcpProxy | null = null;
    const server = createServer((client) => proxy?.accept(client, target));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
    proxy = new TcpProxy(server, address.port);
    proxy.cutOff = options.cut ?? false;
    return proxy;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  cut(): void {
    this.cutOff = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    if (this.cutOff) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }
}
