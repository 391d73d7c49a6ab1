/**
 * JSON patch operations applied the way Kubernetes' Go library applies them, with fast-json-patch
 * doing the work. Two things are added around it:
 *
 * - Member names are names, never properties of the prototype chain. fast-json-patch reads and
 *   writes members with plain property access, so `__proto__` (a valid ConfigMap key) is refused
 *   as a "prototype modification" and `constructor` or `toString` are found on an object that lacks
 *   them (a remove of a missing `/data/constructor` succeeded). While the operations apply, every
 *   member name of the document and of the operations carries a prefix that no inherited property
 *   has, and loses it afterwards.
 * - Go's library (evanphx/json-patch, which kube-apiserver uses) is followed where it is looser
 *   than RFC 6902, as probed on kube-apiserver: a `replace` of a missing member of an existing object
 *   adds it, a `copy` from one copies a null, a pointer's first segment is dropped even when it is
 *   not empty, and negative array indices count from the end.
 */
import jsonpatch from "fast-json-patch";

/** Put before every member name while the operations apply (any prefix works: every name gets it). */
const MARK = "#";

type Json = Record<string, unknown>;

function isMap(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A deep copy of `value` with MARK put before (put) or taken from (!put) every member name. */
function renamed(value: unknown, put: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => renamed(v, put));
  if (!isMap(value)) return value;
  const entries = Object.keys(value).map((k) => [put ? MARK + k : k.slice(1), renamed(value[k], put)]);
  // fromEntries defines its keys, so a "__proto__" name becomes a member, not the prototype.
  return Object.fromEntries(entries);
}

/** A pointer's token as the member name it stands for (RFC 6901: "~1" is "/", "~0" is "~"). */
const unescapedToken = (token: string) => token.replaceAll("~1", "/").replaceAll("~0", "~");

/**
 * A JSON pointer into the marked document `doc`: the member names on its way get MARK; array
 * indices (and "-") do not. Where the way leaves the document, the rest is marked as names, which
 * fail as they would have. Go's library reads pointers more loosely, and so does this: the first
 * segment is dropped whether or not it is empty ("x/data/a" is "/data/a"), and a negative index
 * counts from the end (-1 is the last element; for the element an add inserts, the end itself).
 */
function markedPointer(doc: unknown, pointer: string, adds: boolean): string {
  const first = pointer.indexOf("/");
  if (first < 0) return pointer;
  let at: unknown = doc;
  const out: string[] = [];
  const tokens = pointer.slice(first + 1).split("/");
  for (const [i, token] of tokens.entries()) {
    if (Array.isArray(at)) {
      const index = /^-\d+$/.test(token)
        ? at.length + Number(token) + (adds && i === tokens.length - 1 ? 1 : 0)
        : NaN;
      out.push(index >= 0 ? String(index) : token);
      at = at[index >= 0 ? index : Number(token)];
      continue;
    }
    const name = MARK + token;
    out.push(name);
    const key = unescapedToken(name);
    at = isMap(at) && Object.hasOwn(at, key) ? at[key] : undefined;
  }
  return `/${out.join("/")}`;
}

/** The parent of `pointer`'s target in `doc`, and the target's (marked, unescaped) member name. */
function parentOf(doc: unknown, pointer: string): { parent: unknown; name: string } | undefined {
  const slash = pointer.lastIndexOf("/");
  if (slash < 0) return undefined;
  try {
    const parent = jsonpatch.getValueByPointer(doc, pointer.slice(0, slash));
    return { parent, name: unescapedToken(pointer.slice(slash + 1)) };
  } catch {
    return undefined;
  }
}

/** Whether `pointer` names a missing member of an object that `doc` has. */
function missingMember(doc: unknown, pointer: unknown): boolean {
  if (typeof pointer !== "string") return false;
  const at = parentOf(doc, pointer);
  return at !== undefined && isMap(at.parent) && !Object.hasOwn(at.parent, at.name);
}

/**
 * `op` for the marked document `doc`: pointers and value marked. As in Go's library, a replace of a
 * missing member of an object adds it, and a copy from one copies a null.
 */
function markedOperation(doc: unknown, op: jsonpatch.Operation): jsonpatch.Operation {
  const source = op as jsonpatch.Operation & { from?: unknown; value?: unknown };
  const out: Json = { ...source };
  if (typeof source.path === "string") out.path = markedPointer(doc, source.path, source.op === "add");
  if (typeof source.from === "string") out.from = markedPointer(doc, source.from, false);
  if ("value" in source) out.value = renamed(source.value, true);
  if (out.op === "replace" && missingMember(doc, out.path)) out.op = "add";
  if (out.op === "copy" && missingMember(doc, out.from))
    return { op: "add", path: out.path, value: null } as jsonpatch.Operation;
  return out as unknown as jsonpatch.Operation;
}

/** Bytes a copy operation adds to the document: the JSON size of what it copies. */
function copiedBytes(doc: unknown, op: jsonpatch.Operation): number {
  if (op.op !== "copy") return 0;
  try {
    return JSON.stringify(renamed(jsonpatch.getValueByPointer(doc, op.from), false))?.length ?? 0;
  } catch {
    return 0;
  }
}

/**
 * `target` with `ops` applied in order (target itself is left alone). `onCopy` is told the size of
 * each copy before it applies, so the caller can stop a patch that grows without bound. Throws
 * fast-json-patch's errors (name TEST_OPERATION_FAILED for a failed test) and onCopy's.
 */
export function applyJsonPatchOperations(
  target: unknown,
  ops: readonly jsonpatch.Operation[],
  onCopy?: (bytes: number) => void,
): unknown {
  let doc = renamed(target, true);
  for (const op of ops) {
    const marked = markedOperation(doc, op);
    if (onCopy && marked.op === "copy") onCopy(copiedBytes(doc, marked));
    doc = jsonpatch.applyOperation(doc, marked, true, true).newDocument;
  }
  return renamed(doc, false);
}
