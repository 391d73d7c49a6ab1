/**
 * kubectl's own pod I/O (logs, exec) against the reference server's pod simulation, as a check
 * that the simulated protocols are the ones real clients speak. Reason for reference-only: a bare
 * kube-apiserver has no kubelet.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";

describe.runIf(targetKind === "reference")("kubectl pod I/O against the reference server", () => {
  let t: TestTarget;
  const ns = uniqueName("kubectl-pods");
  const kubectl = kubectlFor(() => t.kubeconfigPath, ns);
  beforeAll(async () => {
    t = await startTarget();
    await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
    const pod = { metadata: { name: "web" }, spec: { containers: [{ name: "main", image: "busybox" }] } };
    await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod });
    t.reference?.pods.log(ns, "web", "main", "line 1", "line 2", "line 3");
  });
  afterAll(() => t.close());

  it("kubectl logs reads the log and its tail", async () => {
    expect(await kubectl("logs", "web")).toMatchObject({ code: 0, stdout: "line 1\nline 2\nline 3\n" });
    expect((await kubectl("logs", "web", "--tail=1")).stdout).toBe("line 3\n");
  });

  it("kubectl exec runs commands with stdin and exit codes", async () => {
    expect(await kubectl("exec", "web", "--", "echo", "hello", "kubectl")).toMatchObject({
      code: 0,
      stdout: "hello kubectl\n",
    });
    const failed = await kubectl("exec", "web", "--", "sh", "-c", "exit 7");
    expect(failed.code).toBe(7);
  });
});
