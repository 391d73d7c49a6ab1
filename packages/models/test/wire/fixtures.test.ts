/**
 * Every k8s.io/api fixture pair of the pinned release is a test vector for the codec: the .pb
 * decodes to exactly the .json (as parsed JSON values), the .json survives encode → decode, and
 * encoding the .json gives the .pb byte for byte.
 */
import { decodeObject, encodeObject } from "@kubesdk/models";
import { beforeAll, describe, expect, test } from "vitest";
import { type FixturePair, loadFixturePairs } from "./upstream-fixtures.js";

let pairs: FixturePair[] = [];

beforeAll(async () => {
  pairs = await loadFixturePairs();
}, 120_000);

/** The bare WatchEvent fixture is written without TypeMeta (its JSON twin has none either). */
const options = (pair: FixturePair) => ({ kind: pair.gvk });

function check(name: string, failures: string[], run: () => void): void {
  try {
    run();
  } catch (error) {
    failures.push(`${name}: ${(error as Error).message.split("\n")[0]}`);
  }
}

describe("k8s.io/api fixture pairs", () => {
  test("there is a pair for well over a hundred kinds, lists and meta kinds included", () => {
    expect(pairs.length).toBeGreaterThan(150);
    const names = pairs.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["core.v1.Pod", "apps.v1.Deployment", "core.v1.Status"]));
  });

  test("decodeObject(pb) equals the JSON fixture", () => {
    const failures: string[] = [];
    for (const pair of pairs) {
      check(pair.name, failures, () => expect(decodeObject(pair.pb, options(pair))).toStrictEqual(pair.json));
    }
    console.info(`fixtures decoding equal to their JSON: ${pairs.length - failures.length}/${pairs.length}`);
    expect(failures).toEqual([]);
  });

  test("decodeObject(encodeObject(json)) equals the JSON fixture", () => {
    const failures: string[] = [];
    for (const pair of pairs) {
      check(pair.name, failures, () =>
        expect(decodeObject(encodeObject(pair.json, options(pair)), options(pair))).toStrictEqual(pair.json),
      );
    }
    console.info(`fixtures round-tripping: ${pairs.length - failures.length}/${pairs.length}`);
    expect(failures).toEqual([]);
  });

  test("encodeObject(json) gives the upstream bytes exactly", () => {
    const differing = pairs
      .filter((pair) => !Buffer.from(encodeObject(pair.json, options(pair))).equals(Buffer.from(pair.pb)))
      .map((pair) => pair.name);
    console.info(`fixtures encoding byte-identically: ${pairs.length - differing.length}/${pairs.length}`);
    expect(differing).toEqual([]);
  });

  test("decoded keys come in Go's struct order, as in the JSON fixture (apiVersion and kind first)", () => {
    const failures: string[] = [];
    for (const pair of pairs) {
      const { apiVersion, kind, ...rest } = pair.json;
      const expected = JSON.stringify(apiVersion === undefined ? rest : { apiVersion, kind, ...rest });
      check(pair.name, failures, () =>
        expect(JSON.stringify(decodeObject(pair.pb, options(pair)))).toBe(expected),
      );
    }
    expect(failures).toEqual([]);
  });

  test("decoded objects put apiVersion and kind first, like the apiserver's JSON", () => {
    const pair = pairs.find((p) => p.name === "apps.v1.Deployment") as FixturePair;
    expect(Object.keys(decodeObject(pair.pb)).slice(0, 3)).toEqual(["apiVersion", "kind", "metadata"]);
  });

  test("a fixture missing its TypeMeta needs the kind from the caller", () => {
    const pair = pairs.find((p) => p.name === "core.v1.WatchEvent") as FixturePair;
    expect(() => decodeObject(pair.pb)).toThrow(expect.objectContaining({ code: "PROTOBUF_UNKNOWN_KIND" }));
    expect(() => encodeObject(pair.json)).toThrow(expect.objectContaining({ code: "PROTOBUF_NO_KIND" }));
  });
});
