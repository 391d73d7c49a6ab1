/**
 * Port-forward over WebSocket (echo server by default, a hook for other ports), on both targets:
 * the reference server's pod simulation, and a real kube-apiserver passing the WebSocket through to
 * the test kubelet.
 */
import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { connect, createServer, type Server } from "node:net";
import { type PodIoError, PortForward } from "@kubesdk/client";
import { isNotFound } from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPod, expectHandlesReleased, openTcpHandles, podSuite } from "./pod-io-support.js";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Sends `payload` over a new connection to `port` and returns what comes back, `expected` bytes long. */
function roundTrip(port: number, payload: Buffer, expected = payload.length): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let received = 0;
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      received += c.length;
      if (received >= expected) {
        socket.destroy();
        resolve(Buffer.concat(chunks));
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks)));
    socket.write(payload);
  });
}

describe("pod port-forward", () => {
  let upstream: Server;
  let upstreamPort = 0;
  beforeAll(async () => {
    // A real TCP service "inside the pod" for port 8080: answers with the upper-cased input.
    upstream = createServer((socket) =>
      socket.on("data", (c: Buffer) => socket.write(c.toString().toUpperCase())),
    );
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    upstreamPort = (upstream.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
  const s = podSuite("podpf", {
    pods: {
      portForward: (_pod, port) => {
        if (port === 8080) return connect(upstreamPort, "127.0.0.1");
        if (port === 81) throw new Error("connection refused");
        return undefined;
      },
    },
  });

  it("forwards 50 concurrent connections with large payloads intact", async () => {
    await createPod(s.kube, "echo");
    const forward = await s.kube.pods.portForward("echo", 9000);
    expect(forward).toBeInstanceOf(PortForward);
    const local = forward.ports[0]?.local as number;
    const payloads = Array.from({ length: 50 }, (_, i) => randomBytes(256 * 1024 + i * 1024));
    const echoed = await Promise.all(payloads.map((p) => roundTrip(local, p)));
    for (const [i, p] of payloads.entries()) expect(sha(echoed[i] as Buffer)).toBe(sha(p));
    await forward.close();
  });

  it("forwards to the pod's service through a hook, several ports at once", async () => {
    const forward = await s.kube.pods.portForward("echo", [8080, { remote: 9001 }]);
    const [app, echo] = forward.ports;
    expect((await roundTrip(app?.local as number, Buffer.from("hello"))).toString()).toBe("HELLO");
    expect((await roundTrip(echo?.local as number, Buffer.from("same"))).toString()).toBe("same");
    await forward.close();
  });

  it("surfaces errors of the pod side and closes that connection", async () => {
    const errors: PodIoError[] = [];
    const forward = await s.kube.pods.portForward("echo", 81, { onError: (e) => errors.push(e) });
    const got = await roundTrip(forward.ports[0]?.local as number, Buffer.from("x"), 1);
    expect(got.length).toBe(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe("PORT_FORWARD_FAILED");
    expect(errors[0]?.message).toContain("error forwarding port 81 to pod echo: connection refused");
    await forward.close();
  });

  it("reports a missing pod per connection and closes every socket on stop", async () => {
    const errors: PodIoError[] = [];
    const forward = await s.kube.pods.portForward("ghost", 80, { onError: (e) => errors.push(e) });
    await roundTrip(forward.ports[0]?.local as number, Buffer.from("x"), 1);
    expect(isNotFound(errors[0]?.cause)).toBe(true);
    await forward.close();

    const baseline = openTcpHandles();
    const open = await s.kube.pods.portForward("echo", 9000);
    const local = open.ports[0]?.local as number;
    const sockets = Array.from({ length: 5 }, () => connect(local, "127.0.0.1"));
    // Each connection is forwarded once its first round trip completes.
    await Promise.all(
      sockets.map((socket) => new Promise((resolve) => socket.once("data", resolve).write("ping"))),
    );
    expect(open.connections).toBe(5);
    await open.close();
    await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.once("close", resolve))));
    await expectHandlesReleased(baseline);
  });
});
