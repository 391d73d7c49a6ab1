import { describe, expect, it } from "vitest";
import { FakeClock } from "../src/clock.js";
import { setCondition } from "../src/conditions.js";
import { ControllerError } from "../src/errors.js";
import { controllerOf, setControllerReference } from "../src/owner-references.js";
import { allOf, annotationsChanged, anyOf, generationChanged, labelsChanged } from "../src/predicates.js";

describe("conditions", () => {
  it("keeps lastTransitionTime while the status stays and sets it when the status changes", () => {
    const t0 = new Date("2026-01-01T00:00:00.123Z");
    const t1 = new Date("2026-01-01T00:05:00Z");
    let c = setCondition(undefined, { type: "Ready", status: "False", reason: "Starting" }, t0);
    expect(c).toEqual([
      {
        type: "Ready",
        status: "False",
        reason: "Starting",
        message: "",
        lastTransitionTime: "2026-01-01T00:00:00Z",
      },
    ]);
    c = setCondition(c, { type: "Ready", status: "False", reason: "StillStarting", message: "m" }, t1);
    expect(c[0]).toMatchObject({
      reason: "StillStarting",
      message: "m",
      lastTransitionTime: "2026-01-01T00:00:00Z",
    });
    c = setCondition(c, { type: "Ready", status: "True", reason: "Up", observedGeneration: 3 }, t1);
    expect(c[0]).toMatchObject({
      status: "True",
      lastTransitionTime: "2026-01-01T00:05:00Z",
      observedGeneration: 3,
    });
    c = setCondition(c, { type: "Other", status: "Unknown", reason: "R" }, t1);
    expect(c.map((x) => x.type)).toEqual(["Ready", "Other"]);
  });
});

describe("owner references", () => {
  const owner = { apiVersion: "example.io/v1", kind: "App", metadata: { name: "a", uid: "u1" } };
  it("adds one controller reference and refuses a second controller", () => {
    const obj = setControllerReference(owner, { metadata: { name: "d", ownerReferences: [] } });
    expect(controllerOf(obj)).toEqual({
      apiVersion: "example.io/v1",
      kind: "App",
      name: "a",
      uid: "u1",
      controller: true,
      blockOwnerDeletion: true,
    });
    expect(setControllerReference(owner, obj).metadata?.ownerReferences).toHaveLength(1);
    const other = { ...owner, metadata: { name: "b", uid: "u2" } };
    expect(() => setControllerReference(other, obj)).toThrow(ControllerError);
  });
});

describe("predicates", () => {
  const obj = (
    generation: number,
    labels: Record<string, string> = {},
    annotations: Record<string, string> = {},
  ) => ({
    metadata: { name: "x", generation, labels, annotations },
  });
  it("filter updates by what changed; adds and deletes pass", () => {
    const g = generationChanged();
    expect(g({ type: "update", old: obj(1), object: obj(1, { a: "b" }) })).toBe(false);
    expect(g({ type: "update", old: obj(1), object: obj(2) })).toBe(true);
    expect(g({ type: "add", object: obj(1) })).toBe(true);
    expect(g({ type: "delete", object: obj(1) })).toBe(true);
    const l = labelsChanged();
    expect(l({ type: "update", old: obj(1, { a: "b" }), object: obj(2, { a: "b" }) })).toBe(false);
    expect(l({ type: "update", old: obj(1, { a: "b" }), object: obj(1, { a: "c" }) })).toBe(true);
    const a = annotationsChanged();
    expect(a({ type: "update", old: obj(1), object: obj(1, {}, { n: "1" }) })).toBe(true);
    const either = anyOf(g, l);
    expect(either({ type: "update", old: obj(1), object: obj(1, { a: "b" }) })).toBe(true);
    expect(allOf(g, l)({ type: "update", old: obj(1), object: obj(1, { a: "b" }) })).toBe(false);
  });
});

describe("FakeClock", () => {
  it("runs timers in due order, including those set by timers, and cancels", () => {
    const clock = new FakeClock();
    const ran: string[] = [];
    clock.setTimer(() => {
      ran.push(`b@${clock.now()}`);
      clock.setTimer(() => ran.push(`c@${clock.now()}`), 5);
    }, 10);
    clock.setTimer(() => ran.push(`a@${clock.now()}`), 5);
    clock.setTimer(() => ran.push("never"), 12).cancel();
    clock.advance(20);
    expect(ran).toEqual(["a@5", "b@10", "c@15"]);
    expect(clock.now()).toBe(20);
  });
});
