/**
 * A CRD schema's string `format` is checked as kube-openapi's strfmt checks it, which is not what
 * JSON-schema validators such as ajv-formats do: `byte` (govalidator's pattern) needs at least one
 * quartet and one line, `uuid` takes each dash as optional and no `urn:uuid:` prefix, and
 * `date-time` takes a `t` in either case but no space for it, and only a `±hh:mm` zone; `hostname`
 * needs a top-level domain of letters, `ipv4` and `cidr` take leading zeros, and a cidr's prefix is
 * at most its address's length; `uri` is Go's url.ParseRequestURI (packages/server/src/crd/request-uri.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRDS, causesOf, deleteCrd, established, group, ns, t, useCrdFixtures } from "./crd-fixtures.js";

useCrdFixtures();

const formatsCrd = () => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `formatteds.${group}` },
  spec: {
    group,
    scope: "Namespaced",
    names: { plural: "formatteds", kind: "Formatted" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: {
                  b: { type: "string", format: "byte" },
                  u: { type: "string", format: "uuid" },
                  t: { type: "string", format: "date-time" },
                  h: { type: "string", format: "hostname" },
                  i: { type: "string", format: "ipv4" },
                  c: { type: "string", format: "cidr" },
                  r: { type: "string", format: "uri" },
                },
              },
            },
          },
        },
      },
    ],
  },
});

const create = (spec: Record<string, string>) =>
  t.call("POST", `/apis/${group}/v1/namespaces/${ns}/formatteds?dryRun=All`, {
    body: { apiVersion: `${group}/v1`, kind: "Formatted", metadata: { name: "f" }, spec },
  });

describe("CRD string formats as kube-openapi's strfmt", () => {
  beforeAll(async () => {
    expect((await t.call("POST", CRDS, { body: formatsCrd() })).status).toBe(201);
    await established(`formatteds.${group}`);
  });
  afterAll(async () => {
    await deleteCrd(`formatteds.${group}`);
  });

  it.each([
    ["a full quartet", { b: "YWJj" }],
    ["padding", { b: "YWI=" }],
    ["a UUID with some dashes left out", { u: "123e4567e89b-12d3a456-426614174000" }],
    ["an upper-case UUID without dashes", { u: "123E4567E89B12D3A456426614174000" }],
    ["a lower-case date-time", { t: "2021-01-01t00:00:00z" }],
    ["a date-time with a fraction and a zone", { t: "2021-01-01T00:00:00.123+01:00" }],
    ["a hostname ending in a dash", { h: "a-" }],
    ["a hostname with a symbol and a letter outside ASCII", { h: "☃.é.com" }],
    ["an ipv4 with leading zeros", { i: "001.2.3.04" }],
    ["an IPv6 with an embedded IPv4 as ipv4", { i: "::ffff:1.2.3.4" }],
    ["a cidr with leading zeros", { c: "001.2.3.4/08" }],
    ["a uri that is a path", { r: "/x" }],
    ["an opaque uri", { r: "x:" }],
    ["`*` as a uri", { r: "*" }],
    ["a uri with userinfo, an underscore in the host and a space in the path", { r: "http://u@a_b:80/p q" }],
  ])("accepts %s", async (_name, spec) => {
    const res = await create(spec);
    expect(res.status, res.text).toBe(201);
  });

  it.each([
    ["b", "an empty byte string", ""],
    ["b", "a second line that is not base64", "YWJj\n!!"],
    ["b", "a missing padding", "YWI"],
    ["u", "a urn:uuid: prefix", "urn:uuid:123e4567-e89b-12d3-a456-426614174000"],
    ["u", "an empty uuid", ""],
    ["t", "a date-time with a space for the T", "2021-01-01 00:00:00Z"],
    ["t", "a zone without a colon", "2021-01-01T00:00:00+0100"],
    ["t", "a date-time without a zone", "2021-01-01T00:00:00"],
    ["t", "hour 24", "2021-01-01T24:00:00Z"],
    ["h", "a hostname whose top-level domain is one letter", "a.b"],
    ["h", "a hostname whose top-level domain has a digit", "a.b1"],
    ["h", "an address as a hostname", "1.2.3.4"],
    ["h", "a hostname with a trailing dot", "a.bc."],
    ["i", "an ipv4 part over 255", "1.2.3.256"],
    ["c", "a cidr prefix longer than the address", "10.0.0.0/33"],
    ["c", "an IPv6 cidr prefix over 128", "::/129"],
    ["c", "a cidr of three parts", "1.2.3/8"],
    ["r", "a uri with a space in the host", "http://a b"],
    ["r", "a uri with a port that is not a number", "http://a:x/"],
    ["r", "a uri with a space in the userinfo", "http://u v@a/"],
    ["r", "a uri with a bad escape", "http://a/%zz"],
    ["r", "a uri whose host escapes an ASCII character", "http://a%41/"],
  ])("refuses in %s %s", async (field, _name, value) => {
    const res = await create({ [field]: value });
    expect(res.status, res.text).toBe(422);
    const type = { b: "byte", u: "uuid", t: "date-time", h: "hostname", i: "ipv4", c: "cidr", r: "uri" }[
      field
    ];
    expect(causesOf(res.json)).toEqual([
      [
        `spec.${field}`,
        "FieldValueTypeInvalid",
        `Invalid value: ${JSON.stringify(value)}: spec.${field} in body must be of type ${type}: ${JSON.stringify(value)}`,
      ],
    ]);
  });
});
