import { createServer } from "node:net";

/**
 * Asks the kernel for a free loopback port. The port is released before the
 * caller binds it, so another process may grab it in between; callers retry
 * when a server then fails with "address already in use".
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === "object") resolve(address.port);
        else reject(new Error("listening socket has no port"));
      });
    });
  });
}
