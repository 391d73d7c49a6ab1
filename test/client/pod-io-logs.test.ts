/**
 * Container logs through `kube.pods`, on both targets: the reference server's pod simulation, and a
 * real kube-apiserver proxying pods/log to the test kubelet's containerLogs endpoint.
 */
import { ClientError } from "@kubesdk/client";
import { ApiError, isNotFound, TransportError } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { targetKind } from "../support/target.js";
import { createPod, expectHandlesReleased, httpCodeOf, openTcpHandles, podSuite } from "./pod-io-support.js";

describe("pod logs", () => {
  const s = podSuite("podlogs");
  const runtime = () => s.pods;

  it("reads the whole log, the last lines, with timestamps and a byte limit", async () => {
    await createPod(s.kube, "plain");
    runtime().log(s.ns, "plain", "main", "alpha", "beta", "gamma");
    expect(await s.kube.pods.log("plain")).toBe("alpha\nbeta\ngamma\n");
    const tail: string[] = [];
    for await (const line of s.kube.pods.logLines("plain", { tailLines: 2 })) tail.push(line);
    expect(tail).toEqual(["beta", "gamma"]);
    const stamped = await s.kube.pods.log("plain", { timestamps: true, tailLines: 1 });
    expect(stamped).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z gamma\n$/);
    expect(await s.kube.pods.log("plain", { limitBytes: 8 })).toBe("alpha\nbe");
  });

  it("follows new lines until the container stops", async () => {
    await createPod(s.kube, "follow");
    runtime().log(s.ns, "follow", "main", "one");
    const seen: string[] = [];
    for await (const line of s.kube.pods.logLines("follow", { follow: true })) {
      seen.push(line);
      if (line === "one") runtime().log(s.ns, "follow", "main", "two", "three");
      if (line === "three") runtime().stop(s.ns, "follow", "main");
    }
    expect(seen).toEqual(["one", "two", "three"]);
  });

  it("ends a followed log cleanly when the caller aborts, releasing the connection", async () => {
    await createPod(s.kube, "abort");
    runtime().log(s.ns, "abort", "main", "first");
    await s.kube.pods.log("abort");
    const baseline = openTcpHandles();
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const line of s.kube.pods.logLines("abort", { follow: true, signal: controller.signal })) {
      seen.push(line);
      controller.abort();
    }
    expect(seen).toEqual(["first"]);
    await expectHandlesReleased(baseline);
  });

  it("names the container of a multi-container pod and reads the previous instance", async () => {
    await createPod(s.kube, "multi", ["app", "sidecar"]);
    runtime().log(s.ns, "multi", "sidecar", "from sidecar");
    expect(await s.kube.pods.log("multi", { container: "sidecar" })).toBe("from sidecar\n");
    runtime().restart(s.ns, "multi", "sidecar");
    expect(await s.kube.pods.log("multi", { container: "sidecar", previous: true })).toBe("from sidecar\n");
    expect(await s.kube.pods.log("multi", { container: "sidecar" })).toBe("");
  });

  it("reports bad input as ApiErrors with the server's Status", async () => {
    await createPod(s.kube, "bad", ["app", "sidecar"]);
    const noContainer = await s.kube.pods.log("bad").catch((e: unknown) => e);
    expect(noContainer).toBeInstanceOf(ApiError);
    expect(httpCodeOf(noContainer)).toBe(400);
    expect((noContainer as ApiError).message).toContain("choose one of: [app sidecar]");
    const unknown = await s.kube.pods.log("bad", { container: "nope" }).catch((e: unknown) => e);
    expect((unknown as ApiError).message).toBe("container nope is not valid for pod bad");
    const missing = await s.kube.pods.log("ghost").catch((e: unknown) => e);
    expect(isNotFound(missing)).toBe(true);
    const previous = await s.kube.pods
      .log("bad", { container: "app", previous: true })
      .catch((e: unknown) => e);
    expect(httpCodeOf(previous)).toBe(400);
    const both = s.kube.pods.logLines("bad", { sinceSeconds: 1, sinceTime: new Date() }).next();
    await expect(both).rejects.toBeInstanceOf(ClientError);
  });
});

// Reference-only: kube-apiserver proxies a followed log as its own chunked response and ends it
// cleanly when the kubelet's connection drops, so the client cannot see the drop there.
describe.runIf(targetKind === "reference")("pod logs: a dropped connection", () => {
  const s = podSuite("podlogsdrop");
  const runtime = () => s.pods;

  it("fails a followed log with a transport error when the server drops the connection", async () => {
    await createPod(s.kube, "dropped");
    runtime().log(s.ns, "dropped", "main", "before");
    const seen: string[] = [];
    const follow = async () => {
      for await (const line of s.kube.pods.logLines("dropped", { follow: true })) {
        seen.push(line);
        runtime().closeAll();
      }
    };
    const err = await follow().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(seen).toEqual(["before"]);
  });
});
