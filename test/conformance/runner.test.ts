/**
 * The conformance runner's pure parts: the selection file, the focus that picks exactly one spec,
 * reading an outcome from ginkgo's JSON report, and the CI gate against the reference run.
 */
import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../scripts/conformance/record.js";
import { longestFirst, regressions } from "../../scripts/conformance/record.js";
import { exactFocus, outcomeFromReport } from "../../scripts/conformance/run-one.js";
import { parseSelection, readSelection } from "../../scripts/conformance/selection.js";

const WATCH =
  "[sig-api-machinery] Watchers should be able to start watching from a specific resource version [Conformance]";

describe("conformance selection", () => {
  it("lists the 355 api-machinery, apps, auth, cli, network and node tests, each run or left out with a reason", () => {
    const tests = readSelection();
    expect(tests).toHaveLength(355);
    expect(tests.filter((t) => t.run)).toHaveLength(195);
    expect(new Set(tests.map((t) => t.name)).size).toBe(355);
    for (const t of tests) expect(t.run || /^[a-z-]+$/.test(t.skipReason ?? "")).toBe(true);
  });

  it("marks [Serial] tests and refuses a line without a decision", () => {
    const [t] = parseSelection("# c\nrun | [sig-apps] X should y [Conformance] [Serial]\n");
    expect(t).toEqual({ name: "[sig-apps] X should y [Conformance] [Serial]", run: true, serial: true });
    expect(() => parseSelection("maybe | [sig-apps] X")).toThrow(/selection.txt:1/);
  });
});

describe("conformance schedule", () => {
  it("runs the longest recorded tests first, and a test without a record before all of them", () => {
    const record: RunRecord = {
      target: "embedded",
      kubernetes: "v1.37.1",
      date: "2026-12-06",
      parallel: 3,
      seconds: 400,
      tests: [
        { name: "short", result: "pass", seconds: 2 },
        { name: "long", result: "pass", seconds: 300 },
        { name: "medium", result: "fail", seconds: 40 },
      ],
    };
    const order = longestFirst(
      [{ name: "short" }, { name: "medium" }, { name: "new" }, { name: "long" }],
      record,
    );
    expect(order.map((t) => t.name)).toEqual(["new", "long", "medium", "short"]);
    expect(longestFirst([{ name: "b" }, { name: "a" }], undefined).map((t) => t.name)).toEqual(["b", "a"]);
  });
});

describe("conformance focus", () => {
  it("matches the test's own text and not a longer name that starts with it", () => {
    const focus = new RegExp(exactFocus(WATCH));
    expect(focus.test(WATCH)).toBe(true);
    expect(focus.test(`Kubernetes e2e suite ${WATCH}`)).toBe(true);
    expect(focus.test(`x${WATCH}`)).toBe(false);
    expect(focus.test(`${WATCH} [Slow]`)).toBe(false);
    expect(focus.test(WATCH.replace("[Conformance]", "xConformancex"))).toBe(false);
  });
});

describe("conformance outcome from the ginkgo report", () => {
  const report = (...specs: object[]) => JSON.stringify([{ SpecReports: specs }]);
  it("reads pass, failure with its first line, timeout, and a failed suite setup", () => {
    expect(outcomeFromReport("t", 3, report({ LeafNodeType: "It", State: "passed" })).result).toBe("pass");
    const failed = outcomeFromReport(
      "t",
      3,
      report({ LeafNodeType: "It", State: "failed", Failure: { Message: "boom\nmore" } }),
    );
    expect(failed).toEqual({ name: "t", result: "fail", seconds: 3, firstFailure: "failed: boom" });
    const timedOut = report({ LeafNodeType: "It", State: "timedout", Failure: { Message: "late" } });
    expect(outcomeFromReport("t", 3, timedOut).result).toBe("timeout");
    const setup = report({
      LeafNodeType: "SynchronizedBeforeSuite",
      State: "failed",
      Failure: { Message: "no nodes" },
    });
    expect(outcomeFromReport("t", 3, setup)).toMatchObject({
      result: "error",
      firstFailure: "SynchronizedBeforeSuite: no nodes",
    });
    expect(outcomeFromReport("t", 3, report()).firstFailure).toBe("no spec matched the focus");
  });
});

describe("conformance gate", () => {
  const run = (target: "embedded" | "real", results: Record<string, "pass" | "fail">): RunRecord => ({
    target,
    kubernetes: "v1.37.1",
    date: "2026-12-06",
    parallel: 3,
    seconds: 1,
    tests: Object.entries(results).map(([name, result]) => ({ name, result, seconds: 1 })),
  });
  it("fails only on tests the reference passed that this run ran and did not pass", () => {
    const reference = run("real", { a: "pass", b: "pass", c: "fail", d: "pass" });
    expect(regressions(run("embedded", { a: "pass", b: "fail", c: "fail" }), reference)).toEqual(["b"]);
  });
});
