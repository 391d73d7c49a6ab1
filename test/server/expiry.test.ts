/**
 * Expired revisions on both targets: the reference server compacts its store, a real apiserver's etcd
 * is compacted. PodTemplates are used because test:real runs them outside the watch cache, so old
 * revisions really are gone there (through the cache they would still be served).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";

let t: TestTarget;
let ns: string;
const base = () => `/api/v1/namespaces/${ns}/podtemplates`;
const names = (res: { json: { items: { metadata: { name: string } }[] } }) =>
  res.json.items.map((i) => i.metadata.name);
const template = (name: string) => ({
  metadata: { name },
  template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "busybox" }] } },
});

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("expiry");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  for (const n of ["a", "b", "c", "d"])
    expect((await t.call("POST", base(), { body: template(n) })).status).toBe(201);
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("expired revisions", () => {
  it("a compacted continue token is 410 Expired with a fresh token that lists the rest of the latest state", async () => {
    const first = await t.call("GET", `${base()}?limit=2`);
    expect(names(first)).toEqual(["a", "b"]);
    await t.call("POST", base(), { body: template("e") });
    await t.compact();
    const res = await t.call("GET", `${base()}?limit=2&continue=${first.json.metadata.continue}`);
    expect(res.status).toBe(410);
    expect(res.json.reason).toBe("Expired");
    expect(res.json.message).toMatch(
      /^The provided continue parameter is too old to display a consistent list result/,
    );
    const fresh = res.json.metadata.continue;
    expect(JSON.parse(Buffer.from(fresh, "base64url").toString()).rv).toBe(-1);
    expect(names(await t.call("GET", `${base()}?limit=10&continue=${fresh}`))).toEqual(["c", "d", "e"]);
  });

  it("a list at a compacted resourceVersion with Exact is 410 Expired", async () => {
    const old = (await t.call("GET", base())).json.metadata.resourceVersion;
    await t.call("POST", base(), { body: template("f") });
    await t.compact();
    const res = await t.call("GET", `${base()}?resourceVersion=${old}&resourceVersionMatch=Exact`);
    expect(res.status).toBe(410);
    expect(res.json).toMatchObject({
      reason: "Expired",
      message: "The resourceVersion for the provided list is too old.",
      code: 410,
    });
  });

  it("a watch from a compacted resourceVersion is 200, one ERROR 410 event, then the end", async () => {
    const old = (await t.call("GET", base())).json.metadata.resourceVersion;
    await t.call("POST", base(), { body: template("g") });
    await t.call("POST", base(), { body: template("h") });
    await t.compact();
    const w = await openWatch(t, `${base()}?watch=1&resourceVersion=${old}`);
    expect(w.status).toBe(200);
    const e = await w.next();
    expect(e?.type).toBe("ERROR");
    expect(e?.object).toMatchObject({ kind: "Status", status: "Failure", reason: "Expired", code: 410 });
    // Reason for checking the text on the reference only: upstream's message depends on whether the
    // watch cache serves the request (cache: `too old resource version: X (Y)`; etcd, as here in
    // test:real: `The resourceVersion for the provided watch is too old.`).
    if (targetKind === "reference")
      expect(e?.object.message).toMatch(new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`));
    else expect(e?.object.message).toBe("The resourceVersion for the provided watch is too old.");
    expect(await w.next()).toBeNull();
    await w.close();
  });
});
