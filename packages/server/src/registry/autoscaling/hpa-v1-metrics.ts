/**
 * The metric shapes autoscaling/v1 keeps in its round-trip annotations: v1 has no metrics field, so
 * kube-apiserver writes the v2 metrics it cannot express as JSON of its older metric types (a flat
 * `metricName`, `targetValue`, `targetAverageValue`, …) and reads them back on a v1 write. Each
 * shape is a table of v1 field ⇄ v2 path, in the order Go's encoder writes the v1 type; a v1
 * quantity that is no pointer in Go is written even when unset, as "0".
 */
import { isObj, type Obj } from "../default-fields.js";

/** A v1 field, its path in the v2 metric source, and what Go writes when it is unset. */
type Field = readonly [v1: string, v2: readonly string[], zero?: string];

interface Shape {
  readonly fields: readonly Field[];
  /** The v2 target's type, which v1 leaves implied by the values it sets (spec metrics only). */
  readonly targetType?: (v1: Obj) => string;
}

/** The object with its undefined members left out (Go's omitempty), keys in the given order. */
export function compact(o: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/** v1's CrossVersionObjectReference: kind and name always written, apiVersion when set. */
const ref = (r: unknown): Obj => {
  const o = isObj(r) ? r : {};
  return compact({ kind: o.kind ?? "", name: o.name ?? "", apiVersion: o.apiVersion });
};
const REF = "ref";

function resourceShape(value: "target" | "current", container: boolean): Shape {
  const avg = value === "target" ? "targetAverage" : "currentAverage";
  const fields: Field[] = [
    ["name", ["name"]],
    [`${avg}Utilization`, [value, "averageUtilization"]],
    // Only the status's average value is no pointer in Go.
    value === "current"
      ? [`${avg}Value`, [value, "averageValue"], "0"]
      : [`${avg}Value`, [value, "averageValue"]],
  ];
  if (container) fields.push(["container", ["container"], ""]);
  if (value === "current") return { fields };
  return {
    fields,
    targetType: (m) => (m.targetAverageUtilization === undefined ? "AverageValue" : "Utilization"),
  };
}

const SPEC_SHAPES: Readonly<Record<string, Shape>> = {
  object: {
    fields: [
      ["target", ["describedObject"], REF],
      ["metricName", ["metric", "name"], ""],
      ["targetValue", ["target", "value"], "0"],
      ["selector", ["metric", "selector"]],
      ["averageValue", ["target", "averageValue"]],
    ],
    targetType: (m) => (m.averageValue === undefined ? "Value" : "AverageValue"),
  },
  pods: {
    fields: [
      ["metricName", ["metric", "name"], ""],
      ["targetAverageValue", ["target", "averageValue"], "0"],
      ["selector", ["metric", "selector"]],
    ],
    targetType: () => "AverageValue",
  },
  resource: resourceShape("target", false),
  containerResource: resourceShape("target", true),
  external: {
    fields: [
      ["metricName", ["metric", "name"], ""],
      ["metricSelector", ["metric", "selector"]],
      ["targetValue", ["target", "value"]],
      ["targetAverageValue", ["target", "averageValue"]],
    ],
    targetType: (m) => (m.targetValue === undefined ? "AverageValue" : "Value"),
  },
};

const STATUS_SHAPES: Readonly<Record<string, Shape>> = {
  object: {
    fields: [
      ["target", ["describedObject"], REF],
      ["metricName", ["metric", "name"], ""],
      ["currentValue", ["current", "value"], "0"],
      ["selector", ["metric", "selector"]],
      ["averageValue", ["current", "averageValue"]],
    ],
  },
  pods: {
    fields: [
      ["metricName", ["metric", "name"], ""],
      ["currentAverageValue", ["current", "averageValue"], "0"],
      ["selector", ["metric", "selector"]],
    ],
  },
  resource: resourceShape("current", false),
  containerResource: resourceShape("current", true),
  external: {
    fields: [
      ["metricName", ["metric", "name"], ""],
      ["metricSelector", ["metric", "selector"]],
      ["currentValue", ["current", "value"], "0"],
      ["currentAverageValue", ["current", "averageValue"]],
    ],
  },
};

const read = (o: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((cur, k) => (isObj(cur) ? cur[k] : undefined), o);

function write(o: Obj, path: readonly string[], value: unknown): void {
  let cur = o;
  for (const k of path.slice(0, -1)) {
    if (!isObj(cur[k])) cur[k] = {};
    cur = cur[k] as Obj;
  }
  cur[path[path.length - 1] as string] = value;
}

const valueFor = (v: unknown, zero: string | undefined): unknown => (zero === REF ? ref(v) : (v ?? zero));

function toV1(m: Obj, shapes: Readonly<Record<string, Shape>>): Obj {
  const out: Obj = { type: m.type };
  for (const [source, shape] of Object.entries(shapes)) {
    if (!isObj(m[source])) continue;
    const v1: Obj = {};
    for (const [name, path, zero] of shape.fields) v1[name] = valueFor(read(m[source], path), zero);
    out[source] = compact(v1);
  }
  return out;
}

function fromV1(m: Obj, shapes: Readonly<Record<string, Shape>>): Obj {
  const out: Obj = { type: m.type };
  for (const [source, shape] of Object.entries(shapes)) {
    const v1 = m[source];
    if (!isObj(v1)) continue;
    const v2: Obj = shape.targetType ? { target: { type: shape.targetType(v1) } } : {};
    for (const [name, path, zero] of shape.fields) {
      const value = valueFor(v1[name], zero);
      if (value !== undefined) write(v2, path, value);
    }
    out[source] = v2;
  }
  return out;
}

/** A v2 metric (spec.metrics item) in the v1 annotation's shape. */
export const metricSpecToV1 = (m: Obj): Obj => toV1(m, SPEC_SHAPES);
/** A v1 annotation metric back in the v2 shape; the target type follows from which value is set. */
export const metricSpecFromV1 = (m: Obj): Obj => fromV1(m, SPEC_SHAPES);
/** A v2 status metric (status.currentMetrics item) in the v1 annotation's shape. */
export const metricStatusToV1 = (m: Obj): Obj => toV1(m, STATUS_SHAPES);
/** A v1 annotation status metric back in the v2 shape. */
export const metricStatusFromV1 = (m: Obj): Obj => fromV1(m, STATUS_SHAPES);
