/**
 * @module test/helpers/tcp-proxy
 * A TCP proxy a test can cut and restore, to take a database away from a running server
 * and give it back: `cut()` drops every connection and refuses new ones; `restore()`
 * accepts again on the same port.
 */
import net from "node:net";

/** A running proxy to `target`. */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free local port.
 *
 * @example
 * const proxy = await startTcpProxy({ host: "127.0.0.1", port: 5432 }); await proxy.cut(); await proxy.restore();
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const port = await listen(0);
  return { port, cut: stop, restore: () => listen(port).then(() => undefined), close: stop };
}
