/** `kubectl get -w --output-watch-events` against the server sees ADDED, MODIFIED and DELETED. */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;
beforeAll(async () => {
  // Without in-process controllers, as the real harness runs (no controller-manager): the root CA
  // publisher would add kube-root-ca.crt to the namespace whose ConfigMaps this test watches.
  t = await startTarget({ controllers: false });
  ns = uniqueName("kw");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("kubectl get -w", () => {
  it("prints each watch event with its type", async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await t.call("POST", path, { body: { metadata: { name: "existing" } } });
    const kubectl = spawn(
      "kubectl",
      [
        "--kubeconfig",
        t.kubeconfigPath,
        "-n",
        ns,
        "get",
        "configmaps",
        "-w",
        "--output-watch-events",
        "--no-headers",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    kubectl.stderr.on("data", (c) => {
      stderr += c;
    });
    const lines = createInterface({ input: kubectl.stdout })[Symbol.asyncIterator]();
    const next = async () => {
      const r = await lines.next();
      if (r.done) throw new Error(`kubectl ended: ${stderr}`);
      return r.value.trim().split(/\s+/).slice(0, 2);
    };
    // The initial list arrives as ADDED; after it, changes made now arrive as they happen.
    expect(await next()).toEqual(["ADDED", "existing"]);
    await t.call("POST", path, { body: { metadata: { name: "live" } } });
    expect(await next()).toEqual(["ADDED", "live"]);
    await t.call("PATCH", `${path}/live`, {
      body: { data: { a: "1" } },
      contentType: "application/merge-patch+json",
    });
    expect(await next()).toEqual(["MODIFIED", "live"]);
    await t.call("DELETE", `${path}/live`);
    expect(await next()).toEqual(["DELETED", "live"]);
    kubectl.kill();
  });
});
