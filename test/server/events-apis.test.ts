/**
 * Events are one resource in two APIs: an event written through `events.k8s.io/v1` is the same object
 * (name, uid, resourceVersion) when read through core `v1`, with the fields renamed, and the other
 * way round — for get, list, watch, updates, patches, apply, delete, field selectors and Tables.
 * Each expectation is the whole object as kube-apiserver answers it, minus server-set metadata.
 */
import { describe, expect, it } from "vitest";
import { openWatch } from "../support/watch-client.js";
import { useTableSuite } from "./table-read.js";

const s = useTableSuite("events-apis");
const core = () => `/api/v1/namespaces/${s.ns}/events`;
const modern = () => `/apis/events.k8s.io/v1/namespaces/${s.ns}/events`;
const TIME = "2026-01-02T03:04:05Z";
const MICRO = "2026-01-02T03:04:05.123456Z";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

/** The object without the metadata the server sets (compared separately). */
function stable(obj: Json): Json {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...meta } = obj.metadata;
  return { ...obj, metadata: meta };
}

async function ok(method: string, path: string, body?: unknown, contentType?: string): Promise<Json> {
  const res = await s.t.call(method, path, {
    ...(body === undefined ? {} : { body }),
    ...(contentType ? { contentType } : {}),
  });
  expect(res.status, res.text).toBeLessThan(300);
  return res.json;
}

const regarding = () => ({ kind: "Pod", namespace: s.ns, name: "web", uid: "u-1", apiVersion: "v1" });

function modernEvent(name: string): Json {
  return {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name },
    eventTime: MICRO,
    reportingController: "example.com/ctl",
    reportingInstance: "ctl-1",
    action: "Scale",
    reason: "Scaled",
    regarding: regarding(),
    note: "scaled up",
    type: "Normal",
  };
}

/** The core v1 view of modernEvent(name). */
function modernAsCore(name: string): Json {
  return {
    kind: "Event",
    apiVersion: "v1",
    metadata: { name, namespace: s.ns },
    involvedObject: regarding(),
    reason: "Scaled",
    message: "scaled up",
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    type: "Normal",
    eventTime: MICRO,
    action: "Scale",
    reportingComponent: "example.com/ctl",
    reportingInstance: "ctl-1",
  };
}

function coreEvent(name: string): Json {
  return {
    metadata: { name },
    involvedObject: regarding(),
    reason: "Pulled",
    message: "image pulled",
    source: { component: "kubelet", host: "node-1" },
    firstTimestamp: TIME,
    lastTimestamp: TIME,
    count: 3,
    type: "Normal",
  };
}

/** The events.k8s.io view of coreEvent(name). */
function coreAsModern(name: string): Json {
  return {
    kind: "Event",
    apiVersion: "events.k8s.io/v1",
    metadata: { name, namespace: s.ns },
    eventTime: null,
    reason: "Pulled",
    regarding: regarding(),
    note: "image pulled",
    type: "Normal",
    deprecatedSource: { component: "kubelet", host: "node-1" },
    deprecatedFirstTimestamp: TIME,
    deprecatedLastTimestamp: TIME,
    deprecatedCount: 3,
  };
}

describe("core and events.k8s.io events are one object", () => {
  it("written through events.k8s.io, read through core v1 (and back)", async () => {
    const created = await ok("POST", modern(), modernEvent("m1"));
    const viaCore = await ok("GET", `${core()}/m1`);
    expect(stable(viaCore)).toEqual(modernAsCore("m1"));
    expect(viaCore.metadata.uid).toBe(created.metadata.uid);
    expect(viaCore.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const back = await ok("GET", `${modern()}/m1`);
    expect(stable(back)).toEqual({
      ...stable(modernEvent("m1")),
      metadata: { name: "m1", namespace: s.ns },
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
  });

  it("written through core v1, read back with Go's empty values filled in", async () => {
    await ok("POST", core(), { metadata: { name: "c0" }, involvedObject: regarding(), reason: "Seen" });
    expect(stable(await ok("GET", `${core()}/c0`))).toEqual({
      kind: "Event",
      apiVersion: "v1",
      metadata: { name: "c0", namespace: s.ns },
      involvedObject: regarding(),
      reason: "Seen",
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: "",
      reportingInstance: "",
    });
  });

  it("written through core v1, read through events.k8s.io", async () => {
    const created = await ok("POST", core(), coreEvent("c1"));
    const viaModern = await ok("GET", `${modern()}/c1`);
    expect(stable(viaModern)).toEqual(coreAsModern("c1"));
    expect(viaModern.metadata.uid).toBe(created.metadata.uid);
    expect(viaModern.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it("lists of either API hold the events of both, with core field selectors on either write", async () => {
    await ok("POST", modern(), { ...modernEvent("l1"), regarding: { ...regarding(), name: "listed" } });
    await ok("POST", core(), { ...coreEvent("l2"), involvedObject: { ...regarding(), name: "listed" } });
    const selector = "fieldSelector=involvedObject.name%3Dlisted";
    const viaCore = await ok("GET", `${core()}?${selector}`);
    expect(viaCore.items.map((e: Json) => e.metadata.name).sort()).toEqual(["l1", "l2"]);
    expect(viaCore.items[0].apiVersion).toBeUndefined();
    const reason = await ok("GET", `${core()}?fieldSelector=reportingComponent%3Dexample.com%2Fctl`);
    expect(reason.items.map((e: Json) => e.metadata.name)).toContain("l1");
    const names = async (path: string) =>
      ((await ok("GET", path)).items as Json[]).map((e) => e.metadata.name).sort();
    expect(await names(`${core()}?fieldSelector=source%3Dkubelet,involvedObject.name%3Dlisted`)).toEqual([
      "l2",
    ]);
    expect(await names(`${modern()}?fieldSelector=regarding.name%3Dlisted`)).toEqual(["l1", "l2"]);
    const byController = `${modern()}?fieldSelector=reportingController%3Dexample.com%2Fctl,regarding.name%3Dlisted`;
    expect(await names(byController)).toEqual(["l1"]);
    expect(
      await names(`${modern()}?fieldSelector=reason%3DPulled,type%3DNormal,regarding.kind%3DPod`),
    ).toContain("l2");
    for (const unsupported of ["involvedObject.name", "source", "note"]) {
      const res = await s.t.call("GET", `${modern()}?fieldSelector=${unsupported}%3Dx`);
      expect(res.status).toBe(400);
      expect(res.json.message).toBe(`field label not supported: ${unsupported}`);
    }
    const viaModern = await ok("GET", `${modern()}?fieldSelector=metadata.name%3Dl2`);
    expect(viaModern.items.map(stable)).toEqual([
      (({ kind: _k, apiVersion: _a, ...rest }) => ({
        ...rest,
        regarding: { ...regarding(), name: "listed" },
      }))(coreAsModern("l2")),
    ]);
  });

  it("an event written through one API arrives on watches of the other", async () => {
    const list = await ok("GET", core());
    const rv = list.metadata.resourceVersion;
    const coreWatch = await openWatch(s.t, `${core()}?watch=true&resourceVersion=${rv}`);
    const modernWatch = await openWatch(s.t, `${modern()}?watch=true&resourceVersion=${rv}`);
    try {
      await ok("POST", modern(), modernEvent("w1"));
      await ok("POST", core(), coreEvent("w2"));
      const seenCore = await coreWatch.until((e) => e.object.metadata?.name === "w2");
      const seenModern = await modernWatch.until((e) => e.object.metadata?.name === "w2");
      const w1 = seenCore.find((e) => e.object.metadata.name === "w1");
      expect(w1?.type).toBe("ADDED");
      expect(stable(w1?.object)).toEqual(modernAsCore("w1"));
      const w2 = seenModern.find((e) => e.object.metadata.name === "w2");
      expect(w2?.type).toBe("ADDED");
      expect(stable(w2?.object)).toEqual(coreAsModern("w2"));
    } finally {
      await coreWatch.close();
      await modernWatch.close();
    }
  });

  it("updates, patches and apply through one API change the object the other shows", async () => {
    const created = await ok("POST", modern(), modernEvent("u1"));
    const viaCore = await ok("GET", `${core()}/u1`);
    const updated = await ok("PUT", `${core()}/u1`, { ...viaCore, message: "changed", count: 2 });
    expect(updated.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
    const read = await ok("GET", `${modern()}/u1`);
    expect(read.note).toBe("changed");
    expect(read.deprecatedCount).toBe(2);
    expect(read.metadata.resourceVersion).toBe(updated.metadata.resourceVersion);
    const series = { count: 2, lastObservedTime: MICRO };
    await ok("PATCH", `${modern()}/u1`, { series }, "application/merge-patch+json");
    expect((await ok("GET", `${core()}/u1`)).series).toEqual(series);
    const applied = { apiVersion: "v1", kind: "Event", metadata: { name: "u1" }, reason: "Applied" };
    await ok("PATCH", `${core()}/u1?fieldManager=t&force=true`, applied, "application/apply-patch+yaml");
    const after = await ok("GET", `${modern()}/u1`);
    expect(stable(after)).toEqual({
      ...stable(modernEvent("u1")),
      metadata: { name: "u1", namespace: s.ns },
      series,
      reason: "Applied",
      note: "changed",
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
      deprecatedCount: 2,
    });
  });

  it("through events.k8s.io only the series may change (core v1 updates are not checked)", async () => {
    await ok("POST", core(), coreEvent("i1"));
    const res = await s.t.call("PATCH", `${modern()}/i1`, {
      body: { note: "other" },
      contentType: "application/merge-patch+json",
    });
    expect(res.status, res.text).toBe(422);
    expect(res.json.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "other": field is immutable',
        field: "message",
      },
    ]);
  });

  it("a delete through one API removes the event from both", async () => {
    await ok("POST", core(), coreEvent("d1"));
    await ok("DELETE", `${modern()}/d1`);
    expect((await s.t.call("GET", `${core()}/d1`)).status).toBe(404);
    expect((await s.t.call("GET", `${modern()}/d1`)).status).toBe(404);
  });

  it("the core Table prints an event written through events.k8s.io", async () => {
    await ok("POST", modern(), modernEvent("t1"));
    const res = await s.t.call("GET", `${core()}/t1`, {
      accept: "application/json;as=Table;v=v1;g=meta.k8s.io",
    });
    expect(res.status, res.text).toBe(200);
    const cells = res.json.rows[0].cells;
    expect(cells.slice(1, 7)).toEqual([
      "Normal",
      "Scaled",
      "pod/web",
      "",
      "example.com/ctl, ctl-1",
      "scaled up",
    ]);
  });
});

describe("event validation, as strict as the API written through", () => {
  const causesOf = async (path: string, body: unknown): Promise<Json> => {
    const res = await s.t.call("POST", path, { body });
    expect(res.status, res.text).toBe(422);
    return res.json.details.causes;
  };

  it("events.k8s.io creates need an event time and type and no deprecated fields", async () => {
    expect(await causesOf(modern(), { metadata: { name: "v1" }, regarding: regarding() })).toEqual([
      { reason: "FieldValueRequired", message: "Required value", field: "eventTime" },
      { reason: "FieldValueInvalid", message: 'Invalid value: "": has invalid value: ', field: "type" },
    ]);
    const deprecated = {
      ...modernEvent("v2"),
      series: { count: 1 },
      deprecatedCount: 2,
      deprecatedSource: { component: "c" },
      deprecatedFirstTimestamp: TIME,
    };
    expect(await causesOf(modern(), deprecated)).toEqual([
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "": should be at least 2',
        field: "series.count",
      },
      { reason: "FieldValueRequired", message: "Required value", field: "series.lastObservedTime" },
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "": needs to be unset',
        field: "firstTimestamp",
      },
      { reason: "FieldValueInvalid", message: 'Invalid value: "": needs to be unset', field: "count" },
      { reason: "FieldValueInvalid", message: 'Invalid value: "": needs to be unset', field: "source" },
    ]);
  });

  it("an event with an event time names its reporter, action and reason (either API)", async () => {
    const bare = { metadata: { name: "v3" }, involvedObject: regarding(), eventTime: MICRO, type: "Normal" };
    expect(await causesOf(core(), bare)).toEqual([
      { reason: "FieldValueRequired", message: "Required value", field: "reportingComponent" },
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "": name part must be non-empty',
        field: "reportingComponent",
      },
      {
        reason: "FieldValueInvalid",
        message: expect.stringMatching(
          /^Invalid value: "": name part must consist of alphanumeric characters/,
        ),
        field: "reportingComponent",
      },
      { reason: "FieldValueRequired", message: "Required value", field: "reportingInstance" },
      { reason: "FieldValueRequired", message: "Required value", field: "action" },
      { reason: "FieldValueRequired", message: "Required value", field: "reason" },
    ]);
    const other = { ...coreEvent("v4"), involvedObject: { ...regarding(), namespace: "elsewhere" } };
    expect(await causesOf(core(), other)).toEqual([
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "elsewhere": does not match event.namespace',
        field: "involvedObject.namespace",
      },
    ]);
  });
});

describe("managedFields across the two APIs", () => {
  type Entry = { manager: string; apiVersion: string; fieldsV1: Json };
  const owners = (obj: Json) =>
    (obj.metadata.managedFields as Entry[] | undefined)?.map((e) => [
      e.manager,
      e.apiVersion,
      Object.keys(e.fieldsV1),
    ]);
  const MERGE = "application/merge-patch+json";

  it("a write through one API drops the entries recorded through the other", async () => {
    await ok("POST", `${modern()}?fieldManager=a`, modernEvent("f1"));
    const read = await ok("GET", `${core()}/f1`);
    const put = await ok("PUT", `${core()}/f1?fieldManager=b`, { ...read, message: "x" });
    expect(owners(put)).toEqual([["b", "v1", ["f:message"]]]);

    await ok("POST", `${core()}?fieldManager=a`, coreEvent("f2"));
    const labelled = await ok(
      "PATCH",
      `${modern()}/f2?fieldManager=b`,
      { metadata: { labels: { x: "y" } } },
      MERGE,
    );
    expect(owners(labelled)).toEqual([["b", "events.k8s.io/v1", ["f:metadata"]]]);

    await ok("POST", `${modern()}?fieldManager=a`, modernEvent("f3"));
    const applied = await ok(
      "PATCH",
      `${core()}/f3?fieldManager=s&force=true`,
      { apiVersion: "v1", kind: "Event", metadata: { name: "f3" }, message: "y" },
      "application/apply-patch+yaml",
    );
    expect(owners(applied)).toEqual([["s", "v1", ["f:message"]]]);
  });

  it("so a write of the same values through the other API still changes the object", async () => {
    const created = await ok("POST", `${modern()}?fieldManager=a`, modernEvent("f4"));
    const same = await ok("PATCH", `${core()}/f4?fieldManager=a`, { message: "scaled up" }, MERGE);
    expect(same.metadata.managedFields).toBeUndefined();
    expect(same.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
  });
});
