/**
 * A TCP forwarder in front of the test server, for faults the server cannot make itself: refused
 * connections (stop listening, then listen again on the same port) and responses delivered in
 * pieces cut at random bytes (plain HTTP only: over TLS the pieces would be re-assembled).
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";

export interface TcpProxy {
  readonly port: number;
  /** Closes every connection and refuses new ones until `accept()`. */
  refuse(): Promise<void>;
  accept(): Promise<void>;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /**
   * Cut server→client bytes into pieces written one per event-loop turn: half of them 1–16 bytes
   * (cuts inside JSON tokens and UTF-8 sequences), the others up to maxPieceBytes.
   */
  readonly rechunk?: { readonly random: () => number; readonly maxPieceBytes: number };
}

export async function startTcpProxy(targetPort: number, options: ProxyOptions = {}): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = async () => {
    const s = createServer((client) => {
      client.setNoDelay(true);
      const upstream = tcpConnect(targetPort, "127.0.0.1");
      sockets.add(client);
      sockets.add(upstream);
      const destroyBoth = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on("error", destroyBoth);
      upstream.on("error", destroyBoth);
      client.on("close", destroyBoth);
      upstream.on("close", destroyBoth);
      client.pipe(upstream);
      if (options.rechunk === undefined) upstream.pipe(client);
      else pipeInPieces(upstream, client, options.rechunk);
    });
    await new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        s.off("error", reject);
        resolve();
      });
    });
    port = (s.address() as { port: number }).port;
    server = s;
  };

  const stop = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s !== undefined) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    refuse: stop,
    accept: listen,
    close: stop,
  };
}

function pipeInPieces(from: Socket, to: Socket, opts: NonNullable<ProxyOptions["rechunk"]>): void {
  let chain = Promise.resolve();
  from.on("data", (chunk: Buffer) => {
    from.pause();
    chain = chain.then(async () => {
      for (let i = 0; i < chunk.length; ) {
        const max = opts.random() < 0.5 ? 16 : opts.maxPieceBytes;
        const size = 1 + Math.floor(opts.random() * max);
        const piece = chunk.subarray(i, i + size);
        i += piece.length;
        if (to.destroyed) return;
        const drained = to.write(piece);
        // One piece per event-loop turn, so the client reads them as separate chunks.
        await new Promise<void>((resolve) => (drained ? setImmediate(resolve) : to.once("drain", resolve)));
      }
      from.resume();
    });
  });
  from.on("end", () => {
    void chain.then(() => to.end());
  });
}
