import { describe, expect, it } from "vitest";
import { StatusError } from "../src/api/status.js";
import { decodeContinue, encodeContinue } from "../src/endpoints/handlers/continue-token.js";

const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function rejection(token: string): string {
  try {
    decodeContinue(token);
  } catch (e) {
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).statusCode).toBe(400);
    return (e as StatusError).message;
  }
  throw new Error("accepted");
}

describe("continue tokens", () => {
  it("round-trip as unpadded base64url JSON in upstream's layout", () => {
    const token = encodeContinue({ rv: 42, start: "ns/b\u0000" });
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(token, "base64url").toString())).toEqual({
      v: "meta.k8s.io/v1",
      rv: 42,
      start: "ns/b\u0000",
    });
    expect(decodeContinue(token)).toEqual({ rv: 42, start: "ns/b\u0000" });
    expect(decodeContinue(encodeContinue({ rv: -1, start: "x" }))).toEqual({ rv: -1, start: "x" });
  });

  it("rejects garbage, wrong versions, zero revisions and empty keys", () => {
    expect(rejection("not base64!")).toContain("illegal base64 data");
    expect(rejection(Buffer.from("{").toString("base64url"))).toContain("not a continue token");
    expect(rejection(raw(5))).toContain("not a continue token");
    expect(rejection(raw({ v: "v2", rv: 1, start: "a" }))).toContain("does not recognize");
    expect(rejection(raw({ v: "meta.k8s.io/v1", rv: 0, start: "a" }))).toContain("resourceVersion");
    expect(rejection(raw({ v: "meta.k8s.io/v1", rv: 1.5, start: "a" }))).toContain("resourceVersion");
    expect(rejection(raw({ v: "meta.k8s.io/v1", rv: 1, start: "" }))).toContain("start key empty");
  });

  it("never lets a start key climb above the list's prefix", () => {
    expect(rejection(raw({ v: "meta.k8s.io/v1", rv: 1, start: "../other/x" }))).toContain("../other/x");
    expect(rejection(raw({ v: "meta.k8s.io/v1", rv: 1, start: "a/./b" }))).toContain("a/./b");
  });
});
