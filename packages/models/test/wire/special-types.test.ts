/**
 * The JSON forms of the types with custom JSON in Go, and the rules for empty values, beyond what
 * the upstream fixtures and Go vectors already pin down.
 */
import { decodeObject, encodeObject, protoTypeFor } from "@kubesdk/models";
import { describe, expect, test } from "vitest";
import { formatDuration, parseDuration } from "../../src/wire/go-duration.js";
import { seal, unseal } from "./helpers.js";

const roundTrip = (object: Record<string, unknown>) => decodeObject(encodeObject(object));

/** The raw Pod message of an enveloped Pod, as protobufjs reads it. */
function rawPod(bytes: Uint8Array): Record<string, unknown> {
  const type = protoTypeFor({ group: "", version: "v1", kind: "Pod" });
  return type.toObject(type.decode(unseal(bytes).raw), { longs: Number }) as Record<string, unknown>;
}

describe("metav1.Time", () => {
  test("is written in UTC with whole seconds, whatever offset or fraction it was given", () => {
    const pod = roundTrip({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", creationTimestamp: "2024-03-01T02:30:00.75+02:30" },
    });
    expect(pod.metadata?.creationTimestamp).toBe("2024-03-01T00:00:00Z");
  });

  test("drops the fraction on the wire, as Go's Time writes whole seconds only", () => {
    const bytes = encodeObject({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { creationTimestamp: "1970-01-01T00:00:10.5Z" },
    });
    expect(rawPod(bytes)).toMatchObject({
      metadata: { creationTimestamp: { seconds: 10, nanos: 0 } },
    });
  });

  test("null and Go's zero time are the zero Time: null, or left out under omitzero", () => {
    // PodCondition.lastProbeTime is not in the JSON either: a zero Time Go writes as null.
    for (const zero of [null, "0001-01-01T00:00:00Z"]) {
      const pod = roundTrip({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "p", creationTimestamp: zero },
        status: { conditions: [{ type: "Ready", status: "True", lastTransitionTime: zero }] },
      });
      expect(pod.metadata).toStrictEqual({ name: "p" });
      expect(pod.status).toStrictEqual({
        conditions: [{ type: "Ready", status: "True", lastProbeTime: null, lastTransitionTime: null }],
      });
    }
  });

  test("times before 1970 and in year 9999 survive", () => {
    for (const time of ["1969-07-20T20:17:40Z", "0001-01-01T00:00:01Z", "9999-12-31T23:59:59Z"]) {
      expect(
        roundTrip({ apiVersion: "v1", kind: "Pod", metadata: { creationTimestamp: time } }).metadata,
      ).toEqual({
        creationTimestamp: time,
      });
    }
  });
});

describe("metav1.MicroTime", () => {
  test("takes exactly six fractional digits, as Go's layout does, and writes them in UTC", () => {
    const event = (eventTime: string) =>
      roundTrip({ apiVersion: "events.k8s.io/v1", kind: "Event", metadata: { name: "e" }, eventTime })
        .eventTime;
    expect(event("2026-01-02T04:04:05.500000+01:00")).toBe("2026-01-02T03:04:05.500000Z");
    for (const text of ["2026-01-02T03:04:05.123456789Z", "2026-01-02T03:04:05Z", "2026-01-02T03:04:05.5Z"]) {
      expect(() => event(text)).toThrow(/RFC 3339/);
    }
  });
});

describe("metav1.Duration (Go duration strings)", () => {
  test.each([
    [0n, "0s"],
    [1n, "1ns"],
    [1_500n, "1.5µs"],
    [2_000_000n, "2ms"],
    [1_000_000_000n, "1s"],
    [90_000_000_000n, "1m30s"],
    [3_600_000_000_000n, "1h0m0s"],
    [3_723_500_000_000n, "1h2m3.5s"],
    [-1_500_000_000n, "-1.5s"],
    [(1n << 63n) - 1n, "2562047h47m16.854775807s"],
  ])("%s ns ⇄ %s", (nanos, text) => {
    expect(formatDuration(nanos)).toBe(text);
    expect(parseDuration(text)).toBe(nanos);
  });

  test("parses every form Go accepts", () => {
    expect(parseDuration("1h30m")).toBe(5_400_000_000_000n);
    expect(parseDuration("1.5h")).toBe(5_400_000_000_000n);
    expect(parseDuration("300us")).toBe(300_000n);
    expect(parseDuration("300μs")).toBe(300_000n);
    expect(parseDuration("+5s")).toBe(5_000_000_000n);
    expect(parseDuration(".5s")).toBe(500_000_000n);
    expect(parseDuration("0")).toBe(0n);
  });

  test.each(["", "5", "1d", "s", "1.5.5s", "-", "9223372036854775808ns"])("rejects %j", (text) => {
    expect(() => parseDuration(text)).toThrow(expect.objectContaining({ code: "PROTOBUF_VALUE" }));
  });
});

describe("other custom-JSON types", () => {
  test("Quantity is the string as given; a bare JSON number is accepted, as Go does", () => {
    const pod = roundTrip({
      apiVersion: "v1",
      kind: "Pod",
      spec: {
        containers: [
          { name: "c", resources: { limits: { cpu: 2, memory: "1Gi" }, requests: { cpu: "250m" } } },
        ],
      },
    });
    expect(pod.spec).toMatchObject({
      containers: [{ resources: { limits: { cpu: "2", memory: "1Gi" }, requests: { cpu: "250m" } } }],
    });
  });

  test("RawExtension holding an enveloped protobuf object reads as that object", () => {
    const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "embedded" } };
    // What Go writes for that Pod: its non-pointer spec and status, and spec's nil containers.
    const goPod = { ...pod, spec: { containers: null }, status: {} };
    const revisionType = protoTypeFor({ group: "apps", version: "v1", kind: "ControllerRevision" });
    const raw = revisionType.encode({ revision: 3, data: { raw: encodeObject(pod) } }).finish();
    expect(decodeObject(seal({ apiVersion: "apps/v1", kind: "ControllerRevision", raw }))).toStrictEqual({
      apiVersion: "apps/v1",
      kind: "ControllerRevision",
      metadata: {},
      data: goPod,
      revision: 3,
    });
  });

  test("RawExtension and FieldsV1 hold any JSON, and null when empty", () => {
    const revision = {
      apiVersion: "apps/v1",
      kind: "ControllerRevision",
      metadata: { managedFields: [{ manager: "m", fieldsType: "FieldsV1", fieldsV1: { "f:data": {} } }] },
      data: { spec: { template: { $patch: "replace", list: [1, "two", null] } } },
      revision: 1,
    };
    expect(roundTrip(revision)).toStrictEqual(revision);
    expect(roundTrip({ ...revision, data: null })).toStrictEqual({ ...revision, data: null });
  });
});

describe("embedded JSON", () => {
  /** The bytes of the one FieldsV1 of a ConfigMap, as protobufjs reads them. */
  function fieldsV1Bytes(fieldsV1: unknown): string {
    const bytes = encodeObject({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { managedFields: [{ manager: "m", fieldsType: "FieldsV1", fieldsV1 }] },
    });
    const type = protoTypeFor({ group: "", version: "v1", kind: "ConfigMap" });
    const raw = type.toObject(type.decode(unseal(bytes).raw)) as {
      metadata: { managedFields: { fieldsV1: { Raw: Uint8Array } }[] };
    };
    return Buffer.from(raw.metadata.managedFields[0]?.fieldsV1.Raw ?? []).toString("utf8");
  }
  /** What Go holds: the JSON text with <, >, &, U+2028 and U+2029 escaped. */
  const goJson = (value: unknown) =>
    JSON.stringify(value).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`,
    );

  test.each([
    ["a FieldsV1 tree", { "f:status": { "f:conditions": { ".": {}, 'k:{"type":"Ready"}': { ".": {} } } } }],
    ["quotes and backslashes in keys", { 'k:{"a\\b":"c"}': {}, "\\": { '"': {} } }],
    ["keys Go escapes", { "a<b": {}, "c>d&e": { "\u2028\u2029": {} } }],
    ["non-ASCII and control characters", { é: { 日本: {} }, "\u0001\n": {}, "\u{1F600}": {} }],
    ["an empty object", {}],
    ["values other than objects", { "f:a": [1, "two", null], "f:b": "x<y", "f:c": 1.5, "f:d": true }],
    ["a lone surrogate", { "\ud800": {} }],
  ])("%s: the bytes of the JSON text Go holds", (_, value) => {
    expect(fieldsV1Bytes(value)).toBe(goJson(value));
  });

  // JavaScript lists index-like keys first, so the order they were read in is lost; Go's map order
  // (bytewise) rebuilds what Go wrote. Objects without such keys keep their own order.
  test("an object with index-like keys is written in Go's map order; others keep theirs", () => {
    const parsed = JSON.parse('{"b":{},"10":{},"2":{},"a":{"1":{}},"z":{"y":{},"x":{}}}');
    expect(Object.keys(parsed)).toStrictEqual(["2", "10", "b", "a", "z"]);
    expect(fieldsV1Bytes(parsed)).toBe('{"10":{},"2":{},"a":{"1":{}},"b":{},"z":{"y":{},"x":{}}}');
    expect(fieldsV1Bytes({ "7": {} })).toBe('{"7":{}}');
    expect(fieldsV1Bytes({ "07": {}, b: {}, a: {} })).toBe('{"07":{},"b":{},"a":{}}');
    expect(fieldsV1Bytes({ "4294967295": {}, b: {}, a: {} })).toBe('{"4294967295":{},"b":{},"a":{}}');
  });

  test("the same holds inside arrays, with characters Go escapes and beyond U+FFFF", () => {
    // UTF-16 order would put U+1F600 (a surrogate pair) before U+FFFF; Go's byte order does not.
    const value = JSON.parse('{"l":[{"\u{1F600}":1,"\uffff":2,"3":3,"a<":4}],"k":null}');
    expect(fieldsV1Bytes(value)).toBe('{"l":[{"3":3,"a\\u003c":4,"\uffff":2,"\u{1F600}":1}],"k":null}');
  });
});

describe("embedded JSON bytes decode as JSON.parse reads them", () => {
  const decodeFieldsV1 = (text: string) => {
    const raw = protoTypeFor({ group: "", version: "v1", kind: "ConfigMap" })
      .encode({ metadata: { managedFields: [{ manager: "m", fieldsV1: { Raw: Buffer.from(text) } }] } })
      .finish();
    const object = decodeObject(seal({ raw })) as { metadata: { managedFields: { fieldsV1: unknown }[] } };
    return object.metadata.managedFields[0]?.fieldsV1;
  };

  test.each([
    '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{}}',
    '{"k:{\\"type\\":\\"Ready\\"}":{".":{}},"a\\\\b":{}}',
    '{"b":{},"10":{},"2":{},"a":{"1":{}}}',
    '{"same":{"x":{}},"other":{},"same":{"y":{}}}',
    '{"__proto__":{"polluted":{}}}',
    "{}",
    '{ "spaced" : { } }',
    '{"\\u0041\\n":{},"\\/":{}}',
    '{"é":{"日本":{}}}',
    '{"f:list":[1,"two",null,true],"f:n":1.5e3}',
    '"just a string"',
  ])("%s", (text) => {
    const decoded = decodeFieldsV1(text);
    expect(decoded).toStrictEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(decoded)).toBe(Object.getPrototypeOf(JSON.parse(text)));
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(JSON.parse(text)));
  });

  test.each(['{"a":{}', '{"a":{}}}', '{"a" {}}', '{"a":{},}', '{"a\\x":{}}', '{"\u0001":{}}'])(
    "%s is not JSON",
    (text) => {
      expect(() => decodeFieldsV1(text)).toThrow(/embedded bytes are not JSON/);
    },
  );
});

describe("maps", () => {
  test("entries are written sorted by key, as Go does", () => {
    const encode = (labels: Record<string, string>) =>
      Buffer.from(encodeObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { labels } }));
    expect(encode({ b: "2", a: "1", c: "3" }).equals(encode({ a: "1", b: "2", c: "3" }))).toBe(true);
  });

  test("Go's key order is byte order, also for integer-like keys and characters beyond U+FFFF", () => {
    // JavaScript objects list "2" before "10"; UTF-16 puts U+1F600 before U+FFFD. Go does neither.
    const keys = ["b", "2", "\u{1F600}", "a", "10", "\uFFFD"];
    const bytes = Buffer.from(
      encodeObject({
        apiVersion: "v1",
        kind: "ConfigMap",
        data: Object.fromEntries(keys.map((k) => [k, "-"])),
      }),
    );
    const written = keys
      .map((key) => ({
        key,
        at: bytes.indexOf(Buffer.from(`\n${String.fromCharCode(Buffer.byteLength(key))}${key}`)),
      }))
      .sort((a, b) => a.at - b.at);
    expect(written.every((w) => w.at > 0)).toBe(true);
    expect(written.map((w) => w.key)).toEqual(["10", "2", "a", "b", "\uFFFD", "\u{1F600}"]);
  });

  test("an entry without its value reads as the zero value", () => {
    // PodDisruptionBudgetStatus.disruptedPods (map<string, Time>) and ConfigMap.data with key only.
    const pdbType = protoTypeFor({ group: "policy", version: "v1", kind: "PodDisruptionBudget" });
    const cmType = protoTypeFor({ group: "", version: "v1", kind: "ConfigMap" });
    // status (3) { disruptedPods (2) { key "p" } }: an entry with no value field.
    const pdb = Uint8Array.of(0x1a, 0x05, 0x12, 0x03, 0x0a, 0x01, 0x70);
    expect(pdbType.decode(pdb)).toBeTruthy();
    expect(
      decodeObject(seal({ apiVersion: "policy/v1", kind: "PodDisruptionBudget", raw: pdb })),
    ).toMatchObject({
      status: { disruptedPods: { p: null } },
    });
    // data (2) { key "k" }
    const cm = Uint8Array.of(0x12, 0x03, 0x0a, 0x01, 0x6b);
    expect(cmType.decode(cm)).toBeTruthy();
    expect(decodeObject(seal({ raw: cm }))).toStrictEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {},
      data: { k: "" },
    });
  });

  test("an entry in another layout than key-then-value reads as Go reads it: the last key and value", () => {
    // data (2) entries, as a decoder meets them only from hand-made bytes.
    const cases: [number[], Record<string, string>][] = [
      // value "v" before key "k"
      [[0x12, 0x06, 0x12, 0x01, 0x76, 0x0a, 0x01, 0x6b], { k: "v" }],
      // key "k", value "a", value "b"
      [[0x12, 0x09, 0x0a, 0x01, 0x6b, 0x12, 0x01, 0x61, 0x12, 0x01, 0x62], { k: "b" }],
      // key "a", value "v", key "b"
      [[0x12, 0x09, 0x0a, 0x01, 0x61, 0x12, 0x01, 0x76, 0x0a, 0x01, 0x62], { b: "v" }],
      // key "k", an unknown field 3, value "v"
      [[0x12, 0x09, 0x0a, 0x01, 0x6b, 0x1a, 0x01, 0x78, 0x12, 0x01, 0x76], { k: "v" }],
    ];
    for (const [bytes, data] of cases)
      expect(decodeObject(seal({ raw: Uint8Array.from(bytes) }))).toStrictEqual({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: {},
        data,
      });
  });
});

describe("empty values", () => {
  test("JSON keys the kind does not have are ignored, as Go's typed decoding does", () => {
    expect(
      roundTrip({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" }, bogus: 1 }),
    ).toStrictEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "x" },
    });
  });

  test("a zero scalar is kept unless omitempty; a non-pointer struct is always written", () => {
    const pod = roundTrip({
      apiVersion: "v1",
      kind: "Pod",
      spec: { containers: [{ name: "", ports: [{ containerPort: 0, hostPort: 0, name: "" }] }] },
    });
    expect(pod.spec).toStrictEqual({
      containers: [{ name: "", ports: [{ containerPort: 0 }], resources: {} }],
    });
  });
});

describe("Go's rules for pointers and empty values", () => {
  const deployment = (spec: Record<string, unknown>) => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d" },
    spec,
  });

  test("a pointer set to zero is kept, a nil one is null or left out under omitempty", () => {
    // replicas: *int32 omitempty; selector: *LabelSelector; paused: bool omitempty;
    // progressDeadlineSeconds: *int32 omitempty; template and strategy: structs.
    const out = roundTrip(deployment({ replicas: 0, paused: false, progressDeadlineSeconds: null }));
    expect(out.spec).toStrictEqual({
      replicas: 0,
      selector: null,
      template: { metadata: {}, spec: { containers: null } },
      strategy: {},
    });
  });

  test("a pointer to an empty struct is {}", () => {
    const pvc = roundTrip({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      spec: { dataSource: { kind: "VolumeSnapshot", name: "snap" }, selector: {} },
    });
    expect(pvc.spec).toMatchObject({
      dataSource: { apiGroup: null, kind: "VolumeSnapshot", name: "snap" },
      selector: {},
    });
  });

  test('[]byte: nil is null (or left out under omitempty), empty is ""', () => {
    const csr = (spec: Record<string, unknown>) =>
      roundTrip({ apiVersion: "certificates.k8s.io/v1", kind: "CertificateSigningRequest", spec }).spec;
    expect(csr({ signerName: "s" })).toMatchObject({ request: null });
    expect(csr({ signerName: "s", request: "" })).toMatchObject({ request: "" });
    expect(csr({ signerName: "s", request: "AAE=" })).toMatchObject({ request: "AAE=" });
  });

  test("encoding writes every non-pointer field, zero or not, and pointers only when set", () => {
    const bytes = encodeObject({
      apiVersion: "v1",
      kind: "Pod",
      spec: { containers: [{ name: "c" }], automountServiceAccountToken: false, hostname: null },
    });
    const pod = rawPod(bytes) as {
      spec: Record<string, unknown> & { containers: Record<string, unknown>[] };
    };
    expect(pod.spec).toMatchObject({ automountServiceAccountToken: false, hostname: "", restartPolicy: "" });
    expect(pod.spec.containers[0]).toMatchObject({ name: "c", image: "", resources: {} });
    expect(pod.spec).not.toHaveProperty("securityContext");
    expect(pod.spec).not.toHaveProperty("terminationGracePeriodSeconds");
  });

  test("null in a pointer field leaves it nil: a pointer Time is not written at all", () => {
    const bytes = encodeObject({ apiVersion: "v1", kind: "Pod", metadata: { deletionTimestamp: null } });
    expect(rawPod(bytes).metadata).not.toHaveProperty("deletionTimestamp");
    expect(decodeObject(bytes).metadata).toStrictEqual({});
  });
});
