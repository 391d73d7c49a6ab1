/**
 * Quantities of built-in kinds as kube-apiserver stores them: decoding a request into Go's
 * resource.Quantity and encoding it again writes the canonical form (`1000m` → `1`, `0.5` →
 * `500m`, `1024Mi` → `1Gi`, a JSON number → its string); a string Go refuses fails the decode.
 */
import { canonicalQuantity, fieldOf, itemOf, type TypeNode } from "@kubesdk/models";

type Json = Record<string, unknown>;

const FORMAT_WRONG =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** Why Go's resource.Quantity refuses to decode the string `v`, in its words (undefined: it decodes). */
export function quantityError(v: string): string | undefined {
  try {
    canonicalQuantity(v.trim());
    return undefined;
  } catch (e) {
    const why = e instanceof Error ? e.message : "";
    if (why.endsWith("(unknown suffix)")) return "unable to parse quantity's suffix";
    if (why.endsWith("(no digits)")) return "unable to parse numeric part of quantity";
    return FORMAT_WRONG;
  }
}

/** The canonical form of one quantity value, or the value itself when it does not parse. */
function canonical(v: string | number): string | number {
  try {
    return canonicalQuantity(typeof v === "number" ? String(v) : v.trim());
  } catch {
    return v;
  }
}

/** Rewrites every quantity under `v` (typed by `node`) in place; returns the (new) value. */
export function canonicalQuantities(v: unknown, node: TypeNode | undefined): unknown {
  if (v === null || v === undefined || !node || node.kind === "untyped") return v;
  if (node.kind === "scalar") {
    if (node.marker !== "quantity" || (typeof v !== "string" && typeof v !== "number")) return v;
    return canonical(v);
  }
  if (typeof v !== "object") return v;
  if (Array.isArray(v)) {
    const item = itemOf(node);
    for (let i = 0; i < v.length; i++) v[i] = canonicalQuantities(v[i], item);
    return v;
  }
  const obj = v as Json;
  for (const [k, child] of Object.entries(obj)) {
    if (
      child === null ||
      (typeof child !== "object" && typeof child !== "string" && typeof child !== "number")
    )
      continue;
    const next = canonicalQuantities(child, fieldOf(node, k));
    if (next !== child) obj[k] = next;
  }
  return v;
}

/** holdsQuantity's answers by type: the schema metadata is fixed, so each type is walked once. */
const holding = new WeakMap<TypeNode, boolean>();

/**
 * Whether a value of type `node` can hold a quantity anywhere inside it: canonicalQuantities has
 * nothing to rewrite under a type that cannot (a ConfigMap), and its walk of the object is skipped.
 * A type met again inside itself counts as holding one while its answer is pending, which can only
 * make the answer `true`: then the walk runs, as it did for every object before.
 */
export function holdsQuantity(node: TypeNode | undefined): boolean {
  if (!node || node.kind === "untyped") return false;
  if (node.kind === "scalar") return node.marker === "quantity";
  const known = holding.get(node);
  if (known !== undefined) return known;
  holding.set(node, true);
  let holds: boolean;
  if (node.kind === "list") holds = holdsQuantity(itemOf(node));
  else if (node.kind === "map") holds = holdsQuantity(fieldOf(node, ""));
  else holds = node.fieldNames.some((name) => holdsQuantity(fieldOf(node, name)));
  holding.set(node, holds);
  return holds;
}
