/**
 * The official Python client (PyPI `kubernetes`, pinned in scripts/cross-check/requirements.txt and
 * installed into a virtualenv by scripts/python-client/ensure-venv.sh on first use)
 * lists and watches configmaps against the server with its watch.Watch().stream helper and must see
 * exactly the events the server produced.
 */
import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

const SCRIPT = fileURLToPath(new URL("./python/watch_configmaps.py", import.meta.url));
const ENSURE_VENV = fileURLToPath(new URL("../../scripts/python-client/ensure-venv.sh", import.meta.url));
let python: string;
let t: TestTarget;
let ns: string;

beforeAll(async () => {
  python = execFileSync("bash", [ENSURE_VENV], { encoding: "utf8", timeout: 600_000 }).trim();
  // Without in-process controllers, as the real harness runs (no controller-manager): the root CA
  // publisher would add kube-root-ca.crt to the namespace whose ConfigMaps this test watches.
  t = await startTarget({ controllers: false });
  ns = uniqueName("py");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
    body: { metadata: { name: "before" }, data: { a: "1" } },
  });
}, 600_000);
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("official Python client", () => {
  it("lists, then watch.stream sees ADDED, MODIFIED and DELETED in order", async () => {
    const py = spawn(python, [SCRIPT, t.kubeconfigPath, ns, "3"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    py.stderr.on("data", (c) => {
      stderr += c;
    });
    const lines = createInterface({ input: py.stdout });
    const it = lines[Symbol.asyncIterator]();
    const next = async () => {
      const r = await it.next();
      if (r.done) throw new Error(`python client ended early: ${stderr}`);
      return JSON.parse(r.value);
    };
    const listed = await next();
    expect(listed.list).toEqual(["before"]);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await t.call("POST", path, { body: { metadata: { name: "during" }, data: { b: "1" } } });
    await t.call("PATCH", `${path}/during`, {
      body: { data: { b: "2" } },
      contentType: "application/merge-patch+json",
    });
    await t.call("DELETE", `${path}/during`);
    const events = [await next(), await next(), await next()];
    expect(events).toEqual([
      { type: "ADDED", name: "during", data: { b: "1" } },
      { type: "MODIFIED", name: "during", data: { b: "2" } },
      { type: "DELETED", name: "during", data: { b: "2" } },
    ]);
    const code = await new Promise<number | null>((resolve) => py.on("close", resolve));
    expect(code).toBe(0);
  });
});
