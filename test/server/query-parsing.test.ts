/**
 * Query parameters and headers read as kube-apiserver reads them: booleans as apimachinery's
 * url.Values conversion decodes them (only "0" and "false" in any case are false), int64
 * parameters with strconv's errors and Go's duration arithmetic, selector edge syntax, HEAD,
 * and Authorization headers that carry no bearer token. Table-driven, on both targets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;
let cms: string;
/** The namespace's list resourceVersion after the fixtures: a watch from it starts quiet. */
let listRv: string;

const CONFIGMAPS: Record<string, Record<string, string>> = {
  "tier-empty": { tier: "" },
  "tier-x": { tier: "x" },
  "no-tier": {},
};

beforeAll(async () => {
  // Controllers off, like kube-apiserver in test:real: no kube-root-ca.crt joins these ConfigMaps.
  t = await startTarget({ controllers: false });
  ns = uniqueName("query");
  cms = `/api/v1/namespaces/${ns}/configmaps`;
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  for (const [name, labels] of Object.entries(CONFIGMAPS))
    expect((await t.call("POST", cms, { body: { metadata: { name, labels } } })).status).toBe(201);
  listRv = (await t.call("GET", cms)).json.metadata.resourceVersion;
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

const q = (value: string) => encodeURIComponent(value);
const names = (list: { items: Array<{ metadata: { name: string } }> }) =>
  list.items.map((i) => i.metadata.name).sort();
/** The event types of a finished watch body (one JSON object a line). */
const eventTypes = (text: string) =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l).type as string);

/** [value, what it decodes to]: Go's conversion, not strconv.ParseBool. */
const BOOLEANS: ReadonlyArray<[string, boolean]> = [
  ["true", true],
  ["1", true],
  ["yes", true],
  ["", true],
  ["no", true],
  ["2", true],
  ["00", true],
  ["t", true],
  [" false", true],
  ["false", false],
  ["FALSE", false],
  ["False", false],
  ["0", false],
];

// Each watch case lasts its one-second timeout: they run concurrently.
describe.concurrent("boolean query parameters", () => {
  it.each(BOOLEANS)("watch=%j is a %s watch", async (value, watch) => {
    // timeoutSeconds=1 ends a watch; a list ignores it.
    const res = await t.call("GET", `${cms}?watch=${q(value)}&timeoutSeconds=1`);
    expect(res.status).toBe(200);
    if (watch) expect(eventTypes(res.text)).toEqual(["ADDED", "ADDED", "ADDED"]);
    else expect(res.json.kind).toBe("ConfigMapList");
  });

  it.each(BOOLEANS)("allowWatchBookmarks=%j allows bookmarks: %s", async (value, allowed) => {
    const res = await t.call(
      "GET",
      `${cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1&allowWatchBookmarks=${q(value)}`,
    );
    expect(res.status).toBe(200);
    const types = eventTypes(res.text);
    expect(types.slice(0, 3)).toEqual(["ADDED", "ADDED", "ADDED"]);
    expect(types.includes("BOOKMARK")).toBe(allowed);
  });

  it.each(BOOLEANS)("sendInitialEvents=%j sends the initial events: %s", async (value, send) => {
    const res = await t.call(
      "GET",
      `${cms}?watch=1&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1&sendInitialEvents=${q(value)}`,
    );
    expect(res.status).toBe(200);
    expect(eventTypes(res.text).filter((e) => e === "ADDED")).toHaveLength(send ? 3 : 0);
  });
});

describe("integer query parameters", () => {
  it.each([
    ["abc", 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ["", 'strconv.ParseInt: parsing "": invalid syntax'],
    ["1.5", 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ["9223372036854775808", 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
  ])("limit=%j is 400 %j", async (value, message) => {
    const res = await t.call("GET", `${cms}?limit=${q(value)}`);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
  });

  it.each([
    ["-1", 3],
    ["0", 3],
    ["+1", 1],
    ["9223372036854775807", 3],
  ])("limit=%j lists %i items", async (value, count) => {
    const res = await t.call("GET", `${cms}?limit=${q(value)}`);
    expect(res.status).toBe(200);
    expect(res.json.items).toHaveLength(count);
  });

  it.each([
    ["abc", 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ["9223372036854775808", 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
  ])("timeoutSeconds=%j on a watch is 400 %j", async (value, message) => {
    const res = await t.call("GET", `${cms}?watch=1&timeoutSeconds=${q(value)}`);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
  });

  // time.Duration(n) * time.Second: -1 is negative, the largest int64 wraps to -1s; both end at once.
  it.each(["-1", "9223372036854775807"])("timeoutSeconds=%j ends a quiet watch at once", async (value) => {
    const res = await t.call("GET", `${cms}?watch=1&resourceVersion=${listRv}&timeoutSeconds=${value}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
  });
});

describe("selector edge syntax", () => {
  it.each([
    ["tier in ()", ["tier-empty"]],
    ["tier notin ()", ["no-tier", "tier-x"]],
    ["tier in (x,)", ["tier-empty", "tier-x"]],
    ["tier in (,x)", ["tier-empty", "tier-x"]],
  ])("labelSelector %j selects %j", async (selector, expected) => {
    const res = await t.call("GET", `${cms}?labelSelector=${q(selector)}`);
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(expected);
  });

  it.each([
    ["metadata.name=tier-x,", ["tier-x"]],
    [",metadata.name=tier-x", ["tier-x"]],
    ["metadata.name!=tier-x,,metadata.name!=no-tier", ["tier-empty"]],
    [",", ["no-tier", "tier-empty", "tier-x"]],
  ])("fieldSelector %j selects %j", async (selector, expected) => {
    const res = await t.call("GET", `${cms}?fieldSelector=${q(selector)}`);
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(expected);
  });
});

describe("HEAD", () => {
  it.each(["collection", "object"])("HEAD of a%s is 405", async (what) => {
    const res = await t.call("HEAD", what === "object" ? `${cms}/tier-x` : cms);
    expect(res.status).toBe(405);
    expect(res.text).toBe("");
  });
});

describe("Authorization headers", () => {
  // [header, outcome]: "token" = authenticated as the test user, "anonymous", or "401".
  const cases = (): ReadonlyArray<[string, "token" | "anonymous" | "401"]> => [
    [`Bearer ${t.token}`, "token"],
    [`bearer ${t.token}`, "token"],
    [`BEARER ${t.token} trailing words`, "token"],
    [`  Bearer ${t.token}  `, "token"],
    ["Bearer", "anonymous"],
    [`Bearer  ${t.token}`, "anonymous"],
    [`Bearer\t${t.token}`, "anonymous"],
    ["Basic dXNlcjpwYXNz", "anonymous"],
    [t.token, "anonymous"],
    ["Bearer not-a-known-token", "401"],
  ];

  it("reads the bearer token as kube-apiserver does: other shapes are anonymous", async () => {
    const seen: Array<[string, number]> = [];
    for (const [header, outcome] of cases()) {
      const res = await t.call("GET", cms, { anonymous: true, headers: { authorization: header } });
      const label = header.replace(t.token, "<token>");
      seen.push([label, res.status]);
      if (outcome === "anonymous")
        expect(res.json.message, label).toBe(
          `configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`,
        );
    }
    expect(seen).toEqual(
      cases().map(([header, outcome]) => [
        header.replace(t.token, "<token>"),
        outcome === "token" ? 200 : outcome === "401" ? 401 : 403,
      ]),
    );
  });
});
