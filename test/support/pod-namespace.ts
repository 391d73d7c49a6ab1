/** A fresh namespace pods can be created in right away. */
import { expect } from "vitest";
import { type TestTarget, uniqueName } from "./target.js";

/**
 * Creates a namespace named after `prefix` and its default ServiceAccount (pods need it, and no
 * controller may have made it yet); returns the namespace's name.
 */
export async function createPodNamespace(t: TestTarget, prefix: string): Promise<string> {
  const ns = uniqueName(prefix);
  const created = await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  expect(created.status, created.text).toBe(201);
  const account = await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
  expect([201, 409]).toContain(account.status);
  return ns;
}
