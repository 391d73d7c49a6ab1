/**
 * Accept negotiation (src/http/negotiate.ts): the plain `application/json` header, answered
 * without parsing, gets what its parse gives (the same header with a space after it is parsed).
 */
import { describe, expect, it } from "vitest";
import { negotiate, type Shape } from "../src/http/negotiate.js";

const OPTIONS: readonly { protobuf: boolean; shapes: readonly Shape[]; pretty?: boolean }[] = [
  { protobuf: true, shapes: ["Table", "PartialObjectMetadata"] },
  { protobuf: false, shapes: [], pretty: true },
];

describe("negotiate", () => {
  it("answers application/json as its parse does", () => {
    for (const opts of OPTIONS) {
      const parsed = negotiate("application/json ", opts);
      expect(parsed).toEqual({ encoding: "json", pretty: opts.pretty ?? false });
      expect(negotiate("application/json", opts)).toEqual(parsed);
    }
  });

  it("still parses every other header", () => {
    const opts = { protobuf: true, shapes: ["Table"] as const };
    expect(negotiate("application/json;as=Table;g=meta.k8s.io;v=v1", opts)).toEqual({
      encoding: "json",
      shape: "Table",
      shapeVersion: "v1",
      pretty: false,
    });
    expect(negotiate("application/vnd.kubernetes.protobuf, application/json", opts)).toEqual({
      encoding: "protobuf",
      pretty: false,
    });
    expect(negotiate("text/html", opts)).toBeUndefined();
  });
});
