/**
 * Facts about the Go struct field behind each proto field, which the protobuf descriptors cannot
 * tell (every field is proto2 `optional`) but which decide how empty values look: in JSON, as
 * Go's encoding/json writes them, and on the wire, as the generated Go protobuf code writes them.
 * Codegen reads them from the Go types of the pinned release (generated/wire-facts.ts).
 */
import { wireFactsJson } from "../generated/wire-facts.js";

/** The Go kind of the field's type, pointer removed. */
export type GoKind = "scalar" | "bytes" | "slice" | "map" | "struct";

export interface GoFieldFacts {
  /** JSON key; "" for an embedded struct whose fields join the parent's JSON object. */
  readonly json: string;
  readonly pointer: boolean;
  readonly omitEmpty: boolean;
  readonly omitZero: boolean;
  readonly kind: GoKind;
}

type FactsTable = Record<string, Record<string, Record<string, string>> | undefined>;

let table: FactsTable | undefined;

/**
 * Facts of each field of a message by proto field name, in Go struct order; undefined for the
 * types whose Go JSON is custom (Time, Quantity, ...) or a bare list (ExtraValue, Verbs).
 */
export function goFieldFactsOf(messageFullName: string): ReadonlyMap<string, GoFieldFacts> | undefined {
  table ??= JSON.parse(wireFactsJson) as FactsTable;
  const dot = messageFullName.lastIndexOf(".");
  const fields = table[messageFullName.slice(0, dot)]?.[messageFullName.slice(dot + 1)];
  if (!fields) return undefined;
  return new Map(Object.entries(fields).map(([proto, code]) => [proto, decodeFacts(proto, code)]));
}

/** "pe" → pointer, omitempty, scalar; "o:" → inlined struct; "e:$ref" → omitempty, JSON "$ref". */
function decodeFacts(proto: string, code: string): GoFieldFacts {
  const colon = code.indexOf(":");
  const flags = colon < 0 ? code : code.slice(0, colon);
  return {
    json: colon < 0 ? proto : code.slice(colon + 1),
    pointer: flags.includes("p"),
    omitEmpty: flags.includes("e"),
    omitZero: flags.includes("z"),
    kind: flags.includes("o")
      ? "struct"
      : flags.includes("l")
        ? "slice"
        : flags.includes("m")
          ? "map"
          : flags.includes("b")
            ? "bytes"
            : "scalar",
  };
}

/**
 * The facts of the fields a message's Go JSON object has: goFieldFactsOf's, with an embedded
 * struct's (JSON name "") replaced by its own fields, as encoding/json inlines them (a Volume's
 * VolumeSource, a key selector's LocalObjectReference, a webhook rule's Rule). The embedded type is
 * the message of the capitalised field name in the same package, or the parent's name followed by
 * it (Probe's `handler` is a ProbeHandler); an embedding neither names is left out.
 */
export function goJsonFactsOf(messageFullName: string): readonly GoFieldFacts[] | undefined {
  const facts = goFieldFactsOf(messageFullName);
  if (!facts) return undefined;
  const out: GoFieldFacts[] = [];
  for (const [proto, f] of facts) {
    if (f.json !== "") {
      out.push(f);
      continue;
    }
    const dot = messageFullName.lastIndexOf(".");
    const type = proto.charAt(0).toUpperCase() + proto.slice(1);
    const embedded =
      goJsonFactsOf(`${messageFullName.slice(0, dot + 1)}${type}`) ??
      goJsonFactsOf(`${messageFullName}${type}`);
    if (embedded) out.push(...embedded);
  }
  return out;
}
