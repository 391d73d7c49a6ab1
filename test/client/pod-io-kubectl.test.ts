/**
 * kubectl's own pod I/O (logs, exec, port-forward, cp), as a check that the protocols are the ones
 * real clients speak. On the reference server it talks to the pod simulation directly; on a real
 * kube-apiserver the apiserver proxies to the test kubelet (exec translated from WebSocket to SPDY,
 * port-forward's SPDY tunnel unwrapped and passed through).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { markRunning } from "../support/kubelet.js";
import { portForward, roundTrip, stop } from "../support/port-forward.js";
import { createPod, podSuite } from "./pod-io-support.js";

// kubectl speaks WebSockets by default (exec: v5.channel.k8s.io; port-forward: SPDY tunnelled in
// WebSocket messages) and SPDY/3.1 upgrades when told to (or when the WebSocket upgrade fails).
const transports: { name: string; env: Record<string, string> }[] = [
  { name: "WebSocket", env: {} },
  {
    name: "SPDY/3.1",
    env: { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: "false", KUBECTL_PORT_FORWARD_WEBSOCKETS: "false" },
  },
];

describe.each(transports)("kubectl pod I/O over $name", ({ name, env }) => {
  const s = podSuite(`kubectl-${name === "WebSocket" ? "ws" : "spdy"}`);
  const kubectl = kubectlFor(() => s.t.kubeconfigPath, undefined, env);
  const inNs = (...args: string[]) => kubectl("-n", s.ns, ...args);

  it("kubectl logs reads the log and its tail", async () => {
    await createPod(s.kube, "web");
    await markRunning(s.t, s.ns, "web", ["main"]); // kubectl port-forward wants a Running pod
    s.pods.log(s.ns, "web", "main", "line 1", "line 2", "line 3");
    expect(await inNs("logs", "web")).toMatchObject({ code: 0, stdout: "line 1\nline 2\nline 3\n" });
    expect((await inNs("logs", "web", "--tail=1")).stdout).toBe("line 3\n");
  });

  it("kubectl exec runs commands with stdin and exit codes", async () => {
    expect(await inNs("exec", "web", "--", "echo", "hello", "kubectl")).toMatchObject({
      code: 0,
      stdout: "hello kubectl\n",
    });
    const failed = await inNs("exec", "web", "--", "sh", "-c", "exit 7");
    expect(failed.code).toBe(7);
  });

  it("kubectl port-forward forwards a local port to the pod", async () => {
    const { child, local } = portForward(s.t.kubeconfigPath, s.ns, "web", 9000, env);
    try {
      const port = await local;
      expect(await roundTrip(port, "ping through kubectl")).toBe("ping through kubectl");
      expect(await roundTrip(port, "second connection")).toBe("second connection");
    } finally {
      await stop(child);
    }
  });

  it("kubectl cp copies a file into the pod and back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kubesdk-kubectl-cp-"));
    writeFileSync(join(dir, "hello.txt"), "hello from kubectl cp\n");
    const up = await inNs("cp", join(dir, "hello.txt"), "web:/srv/hello.txt");
    expect(up.code, up.stderr).toBe(0);
    expect(s.pods.files(s.ns, "web", "main").get("/srv/hello.txt")?.toString()).toBe(
      "hello from kubectl cp\n",
    );
    const down = await inNs("cp", "web:/srv/hello.txt", join(dir, "back.txt"));
    expect(down.code, down.stderr).toBe(0);
    expect(readFileSync(join(dir, "back.txt"), "utf8")).toBe("hello from kubectl cp\n");
  });
});
