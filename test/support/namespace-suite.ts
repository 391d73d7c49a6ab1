/** One target and one fresh namespace for a whole test file. */
import { afterAll, beforeAll, expect } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "./target.js";

/**
 * Registers the file's beforeAll/afterAll: starts a target, creates a namespace named after
 * `prefix` and hands both to `ready`; afterwards deletes the namespace and closes the target.
 */
export function useNamespaceSuite(prefix: string, ready: (t: TestTarget, ns: string) => void): void {
  let target: TestTarget | undefined;
  let ns = "";
  beforeAll(async () => {
    target = await startTarget();
    ns = uniqueName(prefix);
    const res = await target.call("POST", "/api/v1/namespaces", {
      body: { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } },
    });
    expect(res.status, res.text).toBe(201);
    ready(target, ns);
  });
  afterAll(async () => {
    if (!target) return;
    await target.call("DELETE", `/api/v1/namespaces/${ns}`);
    await target.close();
  });
}
