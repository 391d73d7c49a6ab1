/**
 * The containers' aggregate requests a pod-level request must cover (upstream's
 * AggregateContainerRequests, pod overhead left out): the regular containers' sum, or more when an
 * init container (with the sidecars started before it) or the sidecars themselves ask for more.
 * Totals print in the format of the first quantity added, as Go's Quantity.Add keeps it.
 */
import { canonicalQuantity } from "@kubesdk/models";
import { isObject } from "./field-errors.js";
import { type Quantity, quantityValue } from "./quantity-value.js";

type Json = Record<string, unknown>;

interface Total {
  readonly value: Quantity;
  readonly binary: boolean;
}
type Totals = Map<string, Total>;

const BINARY_SUFFIX = /(Ki|Mi|Gi|Ti|Pi|Ei)$/;
const text = (v: unknown) => (typeof v === "number" ? String(v) : String(v ?? ""));

function requestsOf(c: unknown): Totals {
  const out: Totals = new Map();
  const resources = isObject(c) && isObject(c.resources) ? c.resources : {};
  const requests = isObject(resources.requests) ? resources.requests : {};
  for (const [name, raw] of Object.entries(requests)) {
    const value = quantityValue(text(raw));
    if (value) out.set(name, { value, binary: BINARY_SUFFIX.test(text(raw)) });
  }
  return out;
}

function add(a: Totals, b: Totals): Totals {
  const out = new Map(a);
  for (const [name, q] of b) {
    const had = out.get(name);
    out.set(name, had ? { value: had.value.plus(q.value), binary: had.binary } : q);
  }
  return out;
}

function max(a: Totals, b: Totals): Totals {
  const out = new Map(a);
  for (const [name, q] of b) {
    const had = out.get(name);
    if (!had || q.value.compare(had.value) > 0) out.set(name, had ? { ...q, binary: had.binary } : q);
  }
  return out;
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Each resource's aggregate request over the pod's containers. */
export function aggregateContainerRequests(spec: Json): Totals {
  let regular: Totals = new Map();
  for (const c of list(spec.containers)) regular = add(regular, requestsOf(c));
  let sidecars: Totals = new Map();
  let init: Totals = new Map();
  for (const c of list(spec.initContainers)) {
    const own = requestsOf(c);
    if (isObject(c) && c.restartPolicy === "Always") {
      sidecars = add(sidecars, own);
      init = max(init, sidecars);
    } else init = max(init, add(own, sidecars));
  }
  return max(add(regular, sidecars), init);
}

/** A total as Go prints it. */
export function formatTotal(t: Total): string {
  const { num, den } = t.value;
  if (t.binary && num % den === 0n && (num / den) % 1024n === 0n)
    return canonicalQuantity(`${num / den / 1024n}Ki`);
  const nanos = (num * 1_000_000_000n) / den;
  return canonicalQuantity(`${nanos}n`);
}
