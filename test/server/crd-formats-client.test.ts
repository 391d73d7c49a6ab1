/**
 * The client's `validate()` of a defined custom resource refuses exactly the string formats the
 * server refuses: one field per format the server knows (the shared table of
 * packages/models/src/strfmt/formats.ts), the same sample in every field, and the fields the
 * server's 422 names compared with the fields the client names.
 */
import { defineCustomResource } from "@kubesdk/client";
import { STRING_FORMATS } from "@kubesdk/models/internal";
import Type from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRDS, deleteCrd, established, group, ns, t, useCrdFixtures } from "./crd-fixtures.js";

useCrdFixtures();

const NAMES = [...STRING_FORMATS.keys()];
const Formatted = defineCustomResource({
  group,
  kind: "AllFormats",
  scope: "Namespaced",
  versions: {
    v1: {
      storage: true,
      schema: Type.Object({
        spec: Type.Object(
          Object.fromEntries(NAMES.map((format) => [format, Type.Optional(Type.String({ format }))])),
        ),
      }),
    },
  },
});

/** Strings that each some formats take and others refuse. */
const SAMPLES = [
  "",
  "a",
  "a@b",
  "A <a.b@c.de>",
  "1h",
  "3 days",
  "YWJj",
  "123e4567e89b12d3a456426614174000",
  "2021-01-01",
  "2021-02-30",
  "2021-01-01T00:00:00Z",
  "1.2.3.4",
  "::ffff:1.2.3.4",
  "10.0.0.0/8",
  "http://a/p?q",
  "00:11:22:33:44:55",
  "#fff",
  "rgb(1, 2, 3)",
  "123-45-6789",
  "0306406152",
  "978-0-306-40615-7",
  "4111 1111 1111 1111",
  "507f1f77bcf86cd799439011",
  "my-name.example",
];

const refusedByServer = async (value: string): Promise<string[]> => {
  const spec = Object.fromEntries(NAMES.map((n) => [n, value]));
  const res = await t.call("POST", `/apis/${group}/v1/namespaces/${ns}/${Formatted.plural}?dryRun=All`, {
    body: { apiVersion: `${group}/v1`, kind: "AllFormats", metadata: { name: "f" }, spec },
  });
  if (res.status === 201) return [];
  expect(res.status, res.text).toBe(422);
  const causes = (res.json as { details: { causes: Array<{ field: string }> } }).details.causes;
  return causes.map((c) => c.field).sort();
};

const refusedByClient = (value: string): string[] =>
  Formatted.validate({
    apiVersion: `${group}/v1`,
    kind: "AllFormats",
    metadata: { name: "f" },
    spec: Object.fromEntries(NAMES.map((n) => [n, value])),
  })
    .map((issue) => issue.path)
    .sort();

describe("the client's format checks against the server's", () => {
  beforeAll(async () => {
    expect((await t.call("POST", CRDS, { body: Formatted.manifest() })).status).toBe(201);
    await established(Formatted.name);
  });
  afterAll(async () => {
    await deleteCrd(Formatted.name);
  });

  it.each(SAMPLES)("refuses %j in the same formats", async (value) => {
    expect(refusedByClient(value)).toEqual(await refusedByServer(value));
  });
});
