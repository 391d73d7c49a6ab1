import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;
const names = (res: { json: { items: { metadata: { name: string } }[] } }) =>
  res.json.items.map((i) => i.metadata.name);
const base = () => `/api/v1/namespaces/${ns}/configmaps`;
const PROTOBUF = "application/vnd.kubernetes.protobuf";

beforeAll(async () => {
  // Controllers off, like kube-apiserver in test:real: no kube-root-ca.crt joins the listed ConfigMaps.
  t = await startTarget({ controllers: false, settings: { tooLargeResourceVersionWaitMs: 200 } });
  ns = uniqueName("list");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  const labels: Record<string, Record<string, string>> = {
    a: { app: "web", tier: "front" },
    b: { app: "web", tier: "back" },
    c: { app: "db" },
    d: { env: "prod", n: "5" },
    e: {},
  };
  for (const [name, l] of Object.entries(labels))
    expect(
      (await t.call("POST", base(), { body: { metadata: { name, labels: l }, data: { k: name } } })).status,
    ).toBe(201);
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("selectors", () => {
  it.each([
    ["app=web", ["a", "b"]],
    ["app==web", ["a", "b"]],
    ["app!=web", ["c", "d", "e"]],
    ["app in (web,db)", ["a", "b", "c"]],
    ["app notin (web)", ["c", "d", "e"]],
    ["app", ["a", "b", "c"]],
    ["!app", ["d", "e"]],
    ["app=web,tier=back", ["b"]],
    ["n>4", ["d"]],
  ])("labelSelector %s", async (sel, want) => {
    const res = await t.call("GET", `${base()}?labelSelector=${encodeURIComponent(sel)}`);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(want);
  });

  it("field selectors on metadata.name, and 400 for an unsupported field", async () => {
    expect(names(await t.call("GET", `${base()}?fieldSelector=metadata.name%3Dc`))).toEqual(["c"]);
    expect(names(await t.call("GET", `${base()}?fieldSelector=metadata.name!%3Dc`))).toEqual([
      "a",
      "b",
      "d",
      "e",
    ]);
    const bad = await t.call("GET", `${base()}?fieldSelector=spec.nothing%3Dx`);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("spec.nothing");
  });

  it("an unparsable label selector is 400", async () => {
    const res = await t.call("GET", `${base()}?labelSelector=${encodeURIComponent("a in (")}`);
    expect(res.status).toBe(400);
    expect(res.json.reason).toBe("BadRequest");
  });
});

describe("pagination", () => {
  it("pages over one snapshot with remainingItemCount, ignoring later writes", async () => {
    const first = await t.call("GET", `${base()}?limit=2`);
    expect(names(first)).toEqual(["a", "b"]);
    expect(first.json.metadata.remainingItemCount).toBe(3);
    const token = first.json.metadata.continue;
    expect(typeof token).toBe("string");
    // A write after the first page must not show up in later pages of the same list.
    await t.call("POST", base(), { body: { metadata: { name: "bb" } } });
    const second = await t.call("GET", `${base()}?limit=2&continue=${token}`);
    expect(names(second)).toEqual(["c", "d"]);
    expect(second.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    const third = await t.call("GET", `${base()}?limit=2&continue=${second.json.metadata.continue}`);
    expect(names(third)).toEqual(["e"]);
    expect(third.json.metadata.continue).toBeUndefined();
    await t.call("DELETE", `${base()}/bb`);
  });

  it("page size 1 over 5 objects takes 5 requests", async () => {
    let token = "";
    let requests = 0;
    const seen: string[] = [];
    do {
      const res = await t.call("GET", `${base()}?limit=1${token ? `&continue=${token}` : ""}`);
      requests++;
      seen.push(...names(res));
      token = res.json.metadata.continue ?? "";
    } while (token);
    expect(seen).toEqual(["a", "b", "c", "d", "e"]);
    expect(requests).toBe(5);
  });

  it("garbage continue tokens are 400", async () => {
    for (const token of [
      "!!!",
      "bm90LWpzb24",
      Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString("base64url"),
    ]) {
      const res = await t.call("GET", `${base()}?limit=1&continue=${token}`);
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/continue/);
    }
  });

  it("continue together with a resourceVersion is 400", async () => {
    const first = await t.call("GET", `${base()}?limit=1`);
    const res = await t.call(
      "GET",
      `${base()}?limit=1&resourceVersion=5&continue=${first.json.metadata.continue}`,
    );
    expect(res.status).toBe(400);
  });

  it("non-numeric limit is 400; negative limit lists everything", async () => {
    expect((await t.call("GET", `${base()}?limit=abc`)).status).toBe(400);
    const neg = await t.call("GET", `${base()}?limit=-1`);
    expect(neg.status).toBe(200);
    expect(names(neg)).toEqual(["a", "b", "c", "d", "e"]);
  });
});

describe("resourceVersion semantics", () => {
  it.each([
    ["resourceVersionMatch=Exact", "resourceVersionMatch is forbidden unless resourceVersion is provided"],
    [
      "resourceVersion=0&resourceVersionMatch=Exact",
      'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    ],
    ["resourceVersion=1&resourceVersionMatch=Sometimes", "Unsupported value"],
    ["sendInitialEvents=true", "sendInitialEvents is forbidden for list"],
  ])("%s is 422", async (query, message) => {
    const res = await t.call("GET", `${base()}?${query}`);
    expect(res.status).toBe(422);
    expect(res.json.message).toContain('ListOptions.meta.k8s.io "" is invalid');
    expect(res.json.message).toContain(message);
  });

  it("Exact reads the past; NotOlderThan and unset read the present", async () => {
    const before = await t.call("GET", base());
    const rv = before.json.metadata.resourceVersion;
    await t.call("POST", base(), { body: { metadata: { name: "later" } } });
    const exact = await t.call("GET", `${base()}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(200);
    expect(names(exact)).not.toContain("later");
    expect(exact.json.metadata.resourceVersion).toBe(rv);
    const withLimit = await t.call("GET", `${base()}?resourceVersion=${rv}&limit=100`);
    expect(names(withLimit)).not.toContain("later");
    const notOlder = await t.call("GET", `${base()}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`);
    expect(names(notOlder)).toContain("later");
    expect(names(await t.call("GET", `${base()}?resourceVersion=0`))).toContain("later");
    await t.call("DELETE", `${base()}/later`);
  });

  it("a resourceVersion far in the future is 504 Too large resource version with Retry-After", async () => {
    const res = await t.call("GET", `${base()}?resourceVersion=99999999&resourceVersionMatch=NotOlderThan`);
    expect(res.status).toBe(504);
    expect(res.json.reason).toBe("Timeout");
    expect(res.json.message).toMatch(/^Timeout: Too large resource version: 99999999, current: \d+$/);
    expect(res.json.details.causes).toEqual([
      { reason: "ResourceVersionTooLarge", message: "Too large resource version" },
    ]);
    expect(res.json.details.retryAfterSeconds).toBe(1);
    expect(res.headers["retry-after"]).toBe("1");
  });

  it("a non-numeric resourceVersion is rejected", async () => {
    const res = await t.call("GET", `${base()}?resourceVersion=abc`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.json.kind).toBe("Status");
  });
});

// Reason for running on the reference server only: this suite compacts the store in process; against
// the real apiserver the same path needs etcd compaction, which the real-server harness drives.
describe.runIf(targetKind === "reference")("expiry (compaction on demand)", () => {
  it("an expired continue token is 410 with a fresh inconsistent token", async () => {
    if (!t.reference) throw new Error("reference server expected");
    const first = await t.call("GET", `${base()}?limit=2`);
    await t.call("POST", base(), { body: { metadata: { name: "zz" } } });
    t.reference.store.compact();
    const res = await t.call("GET", `${base()}?limit=2&continue=${first.json.metadata.continue}`);
    expect(res.status).toBe(410);
    expect(res.json.reason).toBe("Expired");
    expect(res.json.message).toMatch(
      /^The provided continue parameter is too old to display a consistent list result/,
    );
    const fresh = res.json.metadata.continue;
    expect(JSON.parse(Buffer.from(fresh, "base64url").toString()).rv).toBe(-1);
    const rest = await t.call("GET", `${base()}?limit=10&continue=${fresh}`);
    expect(names(rest)).toEqual(["c", "d", "e", "zz"]);
    const exactOld = await t.call(
      "GET",
      `${base()}?resourceVersion=${first.json.metadata.resourceVersion}&resourceVersionMatch=Exact`,
    );
    expect(exactOld.status).toBe(410);
    await t.call("DELETE", `${base()}/zz`);
  });
});

describe("big lists", () => {
  it("a list of several MiB arrives whole, every item intact", async () => {
    const big = uniqueName("big-list");
    await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: big } } });
    const payload = (i: number) => String(i).repeat(800 * 1024);
    try {
      for (let i = 0; i < 4; i++) {
        const created = await t.call("POST", `/api/v1/namespaces/${big}/configmaps`, {
          body: { metadata: { name: `cm-${i}` }, data: { payload: payload(i) } },
        });
        expect(created.status).toBe(201);
      }
      const list = await t.call("GET", `/api/v1/namespaces/${big}/configmaps`);
      expect(list.status).toBe(200);
      const items = (list.json.items as { metadata: { name: string }; data?: { payload?: string } }[]).filter(
        (item) => item.metadata.name.startsWith("cm-"),
      );
      expect(items.map((item) => item.metadata.name)).toEqual(["cm-0", "cm-1", "cm-2", "cm-3"]);
      expect(items.map((item, i) => item.data?.payload === payload(i))).toEqual([true, true, true, true]);
    } finally {
      await t.call("DELETE", `/api/v1/namespaces/${big}`);
    }
  });

  it("whole lists of an unchanged collection are identical, and each write shows in the next", async () => {
    const many = uniqueName("same-list");
    await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: many } } });
    const path = `/api/v1/namespaces/${many}/configmaps`;
    const cm = (name: string, value: string) => ({ body: { metadata: { name }, data: { k: value } } });
    const listed = async () => {
      const res = await t.call("GET", path);
      expect(res.status).toBe(200);
      const items = res.json.items as { metadata: { name: string }; data: { k: string } }[];
      return { text: res.text, items: items.map((i) => `${i.metadata.name}=${i.data.k}`) };
    };
    const protobufText = async () => (await t.call("GET", path, { accept: PROTOBUF })).text;
    try {
      // More items than a list encodes at once (300 > 256): the sliced, cached path.
      const names = Array.from({ length: 300 }, (_, i) => `cm-${String(i).padStart(3, "0")}`);
      for (let at = 0; at < names.length; at += 20)
        await Promise.all(names.slice(at, at + 20).map((n) => t.call("POST", path, cm(n, n))));
      const first = await listed();
      expect(first.items).toEqual(names.map((n) => `${n}=${n}`));
      expect((await listed()).text).toBe(first.text);
      const pbFirst = await protobufText();
      expect(await protobufText()).toBe(pbFirst);

      expect((await t.call("POST", path, cm("zz-new", "new"))).status).toBe(201);
      expect((await listed()).items.slice(-2)).toEqual(["cm-299=cm-299", "zz-new=new"]);
      expect(await protobufText()).not.toBe(pbFirst);
      expect((await t.call("PUT", `${path}/cm-000`, cm("cm-000", "changed"))).status).toBe(200);
      expect((await listed()).items[0]).toBe("cm-000=changed");
      expect((await t.call("DELETE", `${path}/cm-001`)).status).toBe(200);
      expect((await listed()).items.slice(0, 2)).toEqual(["cm-000=changed", "cm-002=cm-002"]);
    } finally {
      await t.call("DELETE", `/api/v1/namespaces/${many}`);
    }
  });
});
