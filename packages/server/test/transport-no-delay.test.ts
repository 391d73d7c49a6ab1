/**
 * Nagle's algorithm is off on every connection the server accepts (src/http/transport.ts), as Go's
 * net package does for kube-apiserver: with it on, a watch's last small frame behind unacknowledged
 * data waited for the client's delayed ACK. Node applies a listener's `noDelay` to each socket it
 * accepts; node:net's default is off, node:http's on, so both transports are checked.
 */
import { describe, expect, it } from "vitest";
import { closeTransport, createTransport, listen } from "../src/http/transport.js";

describe("the transport's listener", () => {
  for (const insecureHttp of [false, true]) {
    it(`turns Nagle's algorithm off on accepted connections (${insecureHttp ? "HTTP" : "HTTPS"})`, async () => {
      const t = createTransport(insecureHttp, "127.0.0.1", (_req, res) => res.end());
      try {
        await listen(t, 0, "127.0.0.1");
        expect((t.listener as { noDelay?: boolean }).noDelay).toBe(true);
      } finally {
        await closeTransport(t);
      }
    });
  }
});
