/**
 * A CRD schema's string `format` is checked as kube-openapi's strfmt checks it, which is not what
 * JSON-schema validators such as ajv-formats do: `byte` (govalidator's pattern) needs at least one
 * quartet and one line, `uuid` takes each dash as optional and no `urn:uuid:` prefix, and
 * `date-time` takes a `t` in either case but no space for it, and only a `±hh:mm` zone; `hostname`
 * needs a top-level domain of letters, `ipv4` and `cidr` take leading zeros, and a cidr's prefix is
 * at most its address's length; `uri` is Go's url.ParseRequestURI, `email` Go's mail.ParseAddress and
 * `duration` Go's time.ParseDuration or strfmt's spelled-out units (packages/models/src/strfmt/).
 * The CRD comes from defineCustomResource, and each case also asks the client's validator, which
 * must accept exactly what the server accepts.
 */
import { defineCustomResource } from "@kubesdk/client";
import Type from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRDS, causesOf, deleteCrd, established, group, ns, t, useCrdFixtures } from "./crd-fixtures.js";

useCrdFixtures();

const FORMATS = {
  b: "byte",
  u: "uuid",
  t: "date-time",
  h: "hostname",
  i: "ipv4",
  c: "cidr",
  r: "uri",
  e: "email",
  d: "duration",
} as const;
type Field = keyof typeof FORMATS;

const fields = Object.fromEntries(
  Object.entries(FORMATS).map(([f, format]) => [f, Type.Optional(Type.String({ format }))]),
) as Record<Field, ReturnType<typeof Type.Optional<ReturnType<typeof Type.String>>>>;

const Formatted = defineCustomResource({
  group,
  kind: "Formatted",
  scope: "Namespaced",
  versions: { v1: { storage: true, schema: Type.Object({ spec: Type.Object(fields) }) } },
});

const objectWith = (spec: Record<string, string>) => ({
  apiVersion: `${group}/v1`,
  kind: "Formatted",
  metadata: { name: "f" },
  spec,
});
const create = (spec: Record<string, string>) =>
  t.call("POST", `/apis/${group}/v1/namespaces/${ns}/formatteds?dryRun=All`, { body: objectWith(spec) });
/** The fields the client's validator finds wrong. */
const clientRefuses = (spec: Record<string, string>) =>
  Formatted.validate(objectWith(spec)).map((issue) => issue.path);

describe("CRD string formats as kube-openapi's strfmt", () => {
  beforeAll(async () => {
    expect((await t.call("POST", CRDS, { body: Formatted.manifest() })).status).toBe(201);
    await established(Formatted.name);
  });
  afterAll(async () => {
    await deleteCrd(Formatted.name);
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
    ["an email without a dot in its domain", { e: "a@b" }],
    ["an email with a dot in its local part", { e: "a.b@c" }],
    ["an email with a display name", { e: "A <a@b.c>" }],
    ["an email with a quoted local part", { e: '"x y"@b' }],
    ["an email followed by a comment", { e: "a@b (c)" }],
    ["an email in a group of one", { e: "g: a@b;" }],
    ["an email with an IP domain literal", { e: "a@[1.2.3.4]" }],
    ["an email with letters outside ASCII", { e: "é@ü" }],
    ["an email whose display name is an encoded word in UTF-8", { e: "=?utf-8?q?a?= <a@b>" }],
    ["an email whose display name is a malformed encoded word", { e: "=?x?z?a?= <a@b>" }],
    ["an email whose display name ends in an encoded word of an unknown charset", { e: "A =?x?q?a?= <a@b>" }],
    ["a Go duration", { d: "1h30m" }],
    ["a Go duration with a fraction and a sign", { d: "-1.5h" }],
    ["a duration of 0", { d: "0" }],
    ["a duration in spelled-out days", { d: "3 days" }],
    ["a duration with an upper-case unit", { d: "1D" }],
    ["a duration amid other words", { d: "x 1 week y" }],
    ["a duration over Go's range, read by the fallback", { d: "2562048h" }],
  ])("accepts %s, as the client does", async (_name, spec) => {
    const res = await create(spec);
    expect(res.status, res.text).toBe(201);
    expect(clientRefuses(spec)).toEqual([]);
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
    ["e", "an email without a domain", "a@"],
    ["e", "an email with two dots in a row", "a..b@c"],
    ["e", "an email with a trailing dot", "a@b."],
    ["e", "an email with an empty quoted local part", '""@b'],
    ["e", "an email followed by a word", "a@b c"],
    ["e", "two emails", "a@b.c, d@e"],
    ["e", "a group of two emails", "g: a@b, c@d;"],
    ["e", "an email whose domain literal has a leading zero", "a@[01.2.3.4]"],
    ["e", "an empty email", ""],
    ["e", "an email whose display name is an encoded word of an unknown charset", "=?x?q?a?= <a@b>"],
    ["e", "an email whose comment is an encoded word of an unknown charset", "a@b (=?x?q?a?=)"],
    ["d", "a duration with an unknown unit", "1x"],
    ["d", "a duration without a unit", "1"],
    ["d", "a duration whose unit has extra letters", "1hx"],
    ["d", "an empty duration", ""],
    ["d", "a duration whose count is past int64", "99999999999999999999h"],
  ])("refuses in %s %s, as the client does", async (field, _name, value) => {
    const res = await create({ [field]: value });
    expect(res.status, res.text).toBe(422);
    expect(clientRefuses({ [field]: value })).toEqual([`spec.${field}`]);
    const type = FORMATS[field as Field];
    expect(causesOf(res.json)).toEqual([
      [
        `spec.${field}`,
        "FieldValueTypeInvalid",
        `Invalid value: ${JSON.stringify(value)}: spec.${field} in body must be of type ${type}: ${JSON.stringify(value)}`,
      ],
    ]);
  });
});
