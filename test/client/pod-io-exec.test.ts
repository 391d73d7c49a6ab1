/**
 * Exec and attach over the channel WebSocket protocol, on both targets: the reference server's pod
 * simulation, and a real kube-apiserver that translates the v5 WebSocket into SPDY to the test
 * kubelet (and passes v4 WebSockets through to it).
 */
import { ClientError, PodIoError } from "@kubesdk/client";
import type { ProcessContext } from "@kubesdk/server";
import { ApiError, isNotFound, RequestAbortedError } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { targetKind } from "../support/target.js";
import { createPod, expectHandlesReleased, httpCodeOf, openTcpHandles, podSuite } from "./pod-io-support.js";

function text(stream: NodeJS.ReadableStream | null): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    if (stream === null) return resolve("");
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}

// Test hooks: "resize-once" reports the first terminal size; "hang" never finishes on its own;
// "ready-hang" says "ready" first.
async function hooks(proc: ProcessContext) {
  if (proc.command[0] === "resize-once") {
    const size = await new Promise<{ columns: number; rows: number }>((resolve) => proc.onResize(resolve));
    proc.stdout.write(`${size.columns}x${size.rows}\n`);
    return 0;
  }
  if (proc.command[0] === "ready-hang") {
    proc.stdout.write("ready\n");
    await new Promise((resolve) => proc.signal.addEventListener("abort", resolve));
    return 0;
  }
  if (proc.command[0] === "hang") {
    await new Promise((resolve) => proc.signal.addEventListener("abort", resolve));
    return 0;
  }
  return undefined;
}

describe("pod exec and attach", () => {
  const s = podSuite("podexec", { pods: { exec: hooks } });

  it("runs a command to completion with stdout, stderr and exit code 0", async () => {
    await createPod(s.kube, "shell");
    const result = await s.kube.pods.run("shell", ["sh", "-c", "echo out; echo err >&2"]);
    expect(result.exitCode).toBe(0);
    expect(result.status.status).toBe("Success");
    expect(result.stdout.toString()).toBe("out\n");
    expect(result.stderr.toString()).toBe("err\n");
  });

  it("streams stdin through cat and sees end of input (v5 close channel)", async () => {
    const session = await s.kube.pods.exec("shell", ["cat"], { stdin: true });
    expect(session.protocol).toBe("v5.channel.k8s.io");
    const out = text(session.stdout);
    session.stdin?.write("hello ");
    session.stdin?.end("world");
    expect(await session.done).toMatchObject({ exitCode: 0 });
    expect(await out).toBe("hello world");
  });

  it("resolves non-zero exits with their code, and not-found commands in sh with 127", async () => {
    const three = await s.kube.pods.run("shell", ["sh", "-c", "exit 3"]);
    expect(three.exitCode).toBe(3);
    expect(three.status.reason).toBe("NonZeroExitCode");
    const missing = await s.kube.pods.run("shell", ["sh", "-c", "no-such-tool"]);
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr.toString()).toBe("sh: no-such-tool: not found\n");
  });

  it("rejects done with an ApiError when the executable does not exist", async () => {
    const session = await s.kube.pods.exec("shell", ["no-such-binary"]);
    const err = await session.done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).reason).toBe("InternalError");
    expect((err as ApiError).message).toContain('"no-such-binary": executable file not found');
  });

  it("sends terminal resizes on a TTY session", async () => {
    const session = await s.kube.pods.exec("shell", ["resize-once"], { tty: true });
    expect(session.stderr).toBeNull();
    const out = text(session.stdout);
    session.resize({ columns: 120, rows: 40 });
    await session.done;
    expect(await out).toBe("120x40\n");
    const plain = await s.kube.pods.exec("shell", ["hang"]);
    expect(() => plain.resize({ columns: 1, rows: 1 })).toThrow(PodIoError);
    plain.close();
    await plain.done.catch(() => undefined);
  });

  it("falls back to v4.channel.k8s.io when v5 is not offered", async () => {
    const result = await s.kube.pods.run("shell", ["echo", "v4"], { protocols: ["v4.channel.k8s.io"] });
    expect(result.stdout.toString()).toBe("v4\n");
    expect(result.exitCode).toBe(0);
  });

  it("attaches to the main process (stdin echoed back)", async () => {
    const session = await s.kube.pods.attach("shell", { stdin: true });
    const out = text(session.stdout);
    session.stdin?.end("attached\n");
    expect((await session.done).exitCode).toBe(0);
    expect(await out).toBe("attached\n");
  });

  it("rejects a refused upgrade with the server's Status as an ApiError", async () => {
    await createPod(s.kube, "two", ["a", "b"]);
    const unknown = await s.kube.pods.exec("two", ["echo"], { container: "zzz" }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ApiError);
    expect(httpCodeOf(unknown)).toBe(400);
    expect((unknown as ApiError).message).toBe("container zzz is not valid for pod two");
    const missing = await s.kube.pods.exec("ghost", ["echo"]).catch((e: unknown) => e);
    expect(isNotFound(missing)).toBe(true);
    await expect(s.kube.pods.exec("shell", [])).rejects.toBeInstanceOf(ClientError);
  });

  it("ends on abort, on timeout and on close with typed errors and releases every socket", async () => {
    await s.kube.pods.run("shell", ["true"]);
    const baseline = openTcpHandles();
    const controller = new AbortController();
    const aborted = await s.kube.pods.exec("shell", ["hang"], { signal: controller.signal });
    controller.abort();
    await expect(aborted.done).rejects.toBeInstanceOf(RequestAbortedError);
    const timed = await s.kube.pods.exec("shell", ["hang"], { timeoutMs: 50 });
    await expect(timed.done).rejects.toMatchObject({ code: "STREAM_TIMEOUT" });
    const closed = await s.kube.pods.exec("shell", ["hang"], { stdin: true });
    closed.close();
    await expect(closed.done).rejects.toMatchObject({ code: "STREAM_CLOSED" });
    await expect(
      new Promise((resolve, reject) => closed.stdin?.write("late", (e) => (e ? reject(e) : resolve(e)))),
    ).rejects.toBeDefined();
    await expectHandlesReleased(baseline);
  });
});

// Reference-only: when the kubelet drops the SPDY connection mid-output, kube-apiserver's
// translator reads the missing error stream as success and ends the client's WebSocket with a
// Success Status (exit code 0), so only a server that owns the WebSocket itself can show the
// client's handling of a dropped stream.
describe.runIf(targetKind === "reference")("pod exec: a dropped stream", () => {
  const s = podSuite("podexecdrop", { pods: { exec: hooks } });

  it("reports a stream the server drops mid-output as STREAM_CLOSED", async () => {
    await createPod(s.kube, "shell");
    const session = await s.kube.pods.exec("shell", ["ready-hang"]);
    // The process runs (on a real apiserver the kubelet connection exists only after the upgrade).
    await new Promise((resolve) => session.stdout?.once("data", resolve));
    s.pods.closeAll();
    const err = await session.done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PodIoError);
    expect((err as PodIoError).code).toBe("STREAM_CLOSED");
  });
});
