/**
 * The object shapes of generated/proto-decode.ts: one constructor per struct message, sized for
 * the JSON keys its objects can have.
 */
import type { GoMessageFacts } from "./go-field-facts.js";
import type { Protobuf } from "./protobufjs.js";

/**
 * A constructor per struct message, so that its objects are allocated with room for their fields
 * inside the object (a `{}` has room for four; more go to a separately allocated, regrown
 * backing store) and share one hidden-class tree. V8 sizes the first objects by the `this.x`
 * assignments the constructor contains (never run here) and then shrinks to what they used.
 * The prototype is Object.prototype: the objects are plain objects, as JSON.parse makes them.
 */
export function shapeOf(i: number, keys: readonly string[]): string[] {
  const sets = keys.map((k) =>
    /^[A-Za-z_$][\w$]*$/.test(k) ? `this.${k} = 0;` : `this[${JSON.stringify(k)}] = 0;`,
  );
  return [
    `const O${i}: any = function (this: any, sized?: boolean) { if (sized) { ${sets.join(" ")} } };`,
    `O${i}.prototype = Object.prototype;`,
  ];
}

/** The JSON keys a message's object can have (those of inlined structs too), at most 64. */
export function keysOf(
  name: string,
  byName: ReadonlyMap<string, GoMessageFacts>,
  types: ReadonlyMap<string, Protobuf.Type>,
): string[] {
  const keys = new Set<string>();
  const type = types.get(name);
  const message = byName.get(name);
  if (!type || !message) return [];
  if (type.fields.metadata) keys.add("apiVersion").add("kind");
  for (const fact of message.fields) {
    if (fact.json !== "") keys.add(fact.json);
    else {
      const field = type.fields[fact.proto];
      field?.resolve();
      const inner = field?.resolvedType?.fullName.slice(1);
      for (const k of inner ? keysOf(inner, byName, types) : []) keys.add(k);
    }
  }
  return [...keys].slice(0, 64);
}
