import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StatusError } from "../src/api/status.js";
import { redactTarget } from "../src/endpoints/dispatch.js";
import { decodeBuiltin } from "../src/endpoints/handlers/write-checks.js";
import { parseRequestTarget } from "../src/endpoints/request-target.js";
import { nestsDeeperThan } from "../src/http/limits.js";
import { parseRequestInfo } from "../src/http/request-info.js";
import { builtinResourceTable } from "../src/registry/index.js";

const statusOf = (f: () => unknown): number => {
  try {
    f();
  } catch (e) {
    return e instanceof StatusError ? e.statusCode : -1;
  }
  return 0;
};

describe("request targets", () => {
  it("decodes escapes once and keeps dot segments as names", () => {
    const t = parseRequestTarget("/api/v1/namespaces/a/configmaps/%2e%2e?x=1");
    expect(t.segments).toEqual(["api", "v1", "namespaces", "a", "configmaps", ".."]);
    expect(t.query.get("x")).toBe("1");
    expect(parseRequestTarget("/a/pct-ex%69sting").segments).toEqual(["a", "pct-existing"]);
  });

  it("marks paths with empty segments as addressing nothing, but allows one trailing slash", () => {
    expect(parseRequestTarget("//a/api/v1").segments).toBeUndefined();
    expect(parseRequestTarget("/api//v1").segments).toBeUndefined();
    expect(parseRequestTarget("/api/v1/").segments).toEqual(["api", "v1"]);
    expect(parseRequestTarget("/").segments).toEqual([]);
  });

  it("answers unparseable targets with a 400 Status instead of throwing anything else", () => {
    expect(statusOf(() => parseRequestTarget("//%zz"))).toBe(400);
    expect(statusOf(() => parseRequestTarget("http://[::1"))).toBe(400);
    expect(statusOf(() => parseRequestTarget("*"))).toBe(400);
    for (const ok of ["//", "//[", "//a:99999/", "//user@:80/"])
      expect(statusOf(() => parseRequestTarget(ok))).toBe(0);
    expect(parseRequestTarget("https://example.com/api?x=1").pathname).toBe("/api");
  });

  it("never throws anything but a Status, whatever the target", () => {
    const piece = fc.constantFrom(
      "/",
      "//",
      "%",
      "%2",
      "%zz",
      "%2e",
      "..",
      ".",
      "[",
      "]",
      ":",
      "@",
      "?",
      "#",
      "a",
      "http://",
      "\\",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string()), { maxLength: 12 }), (parts) => {
        const target = parts.join("");
        try {
          const t = parseRequestTarget(target);
          parseRequestInfo("GET", t.pathname, t.segments, t.query);
        } catch (e) {
          expect(e).toBeInstanceOf(StatusError);
        }
      }),
      { seed: 12, numRuns: 2000 },
    );
  });

  it("routes a path without empty segments only", () => {
    const q = new URLSearchParams();
    expect(parseRequestInfo("GET", "//api/v1/namespaces", undefined, q)).toEqual({
      type: "other",
      path: "//api/v1/namespaces",
    });
    expect(
      parseRequestInfo(
        "DELETE",
        "/api/v1/namespaces/n/configmaps/..",
        ["api", "v1", "namespaces", "n", "configmaps", ".."],
        q,
      ),
    ).toMatchObject({
      type: "resource",
      namespace: "n",
      name: "..",
      verb: "delete",
    });
  });
});

describe("limits and logging", () => {
  it("measures nesting without recursion", () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(nestsDeeperThan(v, 500)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
  });

  it("redacts credentials in logged query strings and cuts long targets", () => {
    expect(redactTarget("/api?access_token=abc&limit=1")).toBe("/api?access_token=REDACTED&limit=1");
    expect(redactTarget("/api?TOKEN=abc")).toBe("/api?TOKEN=REDACTED");
    expect(redactTarget(`/api?x=${"a".repeat(5000)}`).length).toBeLessThan(2100);
  });
});

describe("type checks of built-in objects", () => {
  const table = builtinResourceTable();
  const deployments = table.find("apps", "v1", "deployments");
  const check = (spec: unknown) => () =>
    decodeBuiltin(deployments as NonNullable<typeof deployments>, { metadata: { name: "d" }, spec }, "body");

  it("accepts well-typed objects, null and int-or-string values", () => {
    expect(
      statusOf(check({ replicas: 3, strategy: { rollingUpdate: { maxSurge: "25%", maxUnavailable: 1 } } })),
    ).toBe(0);
    expect(statusOf(check({ replicas: null }))).toBe(0);
  });

  it("refuses wrong JSON types and integers out of range", () => {
    for (const replicas of ["3", 1.5, Number.POSITIVE_INFINITY, 2 ** 31, true, [1]])
      expect(statusOf(check({ replicas }))).toBe(400);
    expect(statusOf(check({ replicas: -(2 ** 31) }))).toBe(0);
    expect(statusOf(check({ template: { spec: { containers: { name: "c" } } } }))).toBe(400);
  });
});
