/** The wire facts emitter on hand-made descriptors and Go facts: what it writes and what it refuses. */
import { describe, expect, test } from "vitest";
import { emitWireFacts } from "../../../scripts/codegen/emit-wire-facts.js";
import type { GoFieldFact, GoMessageFacts } from "../../../scripts/codegen/go-field-facts.js";
import { type Protobuf, protobuf } from "../../../scripts/codegen/protobufjs.js";

const proto = `
syntax = "proto2";
package k8s.io.api.demo.v1;
message Widget {
  optional Common common = 1;
  optional int32 replicas = 2;
  repeated string tags = 3;
  map<string, string> labels = 4;
  optional bytes data = 5;
  optional string uID = 6;
}
message Common {
  optional string name = 1;
}
`;

function descriptors(): Map<string, Protobuf.Type> {
  const root = protobuf.parse(proto, { keepCase: true }).root;
  root.resolveAll();
  const pkg = "k8s.io.api.demo.v1";
  return new Map(
    ["Widget", "Common"].map((name) => [`${pkg}.${name}`, root.lookupType(`${pkg}.${name}`)] as const),
  );
}

const fact = (proto: string, number: number, rest: Partial<GoFieldFact> = {}): GoFieldFact => ({
  goName: proto[0]?.toUpperCase() + proto.slice(1),
  proto,
  number,
  json: proto,
  pointer: false,
  omitEmpty: true,
  omitZero: false,
  kind: "scalar",
  ...rest,
});

const message = (name: string, fields: GoFieldFact[]): GoMessageFacts => ({
  name: `k8s.io.api.demo.v1.${name}`,
  goType: `k8s.io/api/demo/v1.${name}`,
  goKind: "struct",
  customJson: false,
  fields,
});

const widgetFields = (): GoFieldFact[] => [
  fact("common", 1, { json: "", omitEmpty: false, kind: "struct" }),
  fact("replicas", 2, { pointer: true }),
  fact("tags", 3, { kind: "slice" }),
  fact("labels", 4, { kind: "map" }),
  fact("data", 5, { omitEmpty: false, kind: "bytes" }),
  fact("uID", 6, { json: "uid" }),
];
const common = message("Common", [fact("name", 1, { omitEmpty: false })]);
const info = { kubernetes: "1.99.0" };

function problemsOf(fields: GoFieldFact[], others: GoMessageFacts[] = [common]): string {
  try {
    emitWireFacts(descriptors(), [message("Widget", fields), ...others], info);
  } catch (error) {
    expect(error).toMatchObject({ code: "ERR_GO_FIELD_FACTS" });
    return (error as Error).message;
  }
  throw new Error("expected emitWireFacts to refuse the facts");
}

describe("wire facts emitter", () => {
  test("writes one compact line per message, grouped by package", () => {
    const emitted = emitWireFacts(descriptors(), [message("Widget", widgetFields()), common], info);
    expect(emitted).toMatchObject({ messageCount: 2, fieldCount: 7 });
    expect(emitted.content).toContain(
      [
        '"k8s.io.api.demo.v1":{',
        '"Common":{"name":""},',
        '"Widget":{"common":"o:","replicas":"pe","tags":"el","labels":"em","data":"b","uID":"e:uid"}',
        "}",
      ].join("\n"),
    );
  });

  test("refuses a message without Go facts, naming it", () => {
    expect(problemsOf(widgetFields(), [])).toContain(
      "k8s.io.api.demo.v1.Common: no Go type has this message",
    );
  });

  test("refuses facts whose number, name or kind disagree with the descriptor", () => {
    const fields = widgetFields();
    fields[1] = fact("replicas", 7, { pointer: true });
    fields[2] = fact("tags", 3, { kind: "map" });
    const problems = problemsOf([...fields, fact("extra", 9)]);
    expect(problems).toContain("Widget.replicas = 2: no Go field with this protobuf name and number");
    expect(problems).toContain("Widget.tags: Go kind map, but the descriptor says slice");
    expect(problems).toContain("Go field Extra (extra = 9) is not in the descriptor");
  });

  test("refuses what the codec cannot follow: inlined pointers, pointers to lists, clashing JSON keys", () => {
    const fields = widgetFields();
    fields[0] = fact("common", 1, { json: "", pointer: true, kind: "struct" });
    fields[2] = fact("tags", 3, { pointer: true, kind: "slice" });
    expect(problemsOf(fields)).toContain("Widget.common: only plain non-pointer structs can be inlined");
    expect(problemsOf(fields)).toContain("Widget.tags: a pointer to a slice is not supported");
    const clashing = widgetFields();
    clashing[5] = fact("uID", 6, { json: "name" });
    expect(problemsOf(clashing)).toContain("JSON key name appears twice");
  });
});
