/**
 * The rest of a pod's own annotations (ValidatePodSpecificAnnotations and its update rules
 * upstream): a mirror pod names its node and keeps its annotation, the deletion cost is a 32-bit
 * integer, and the legacy tolerations annotation holds tolerations as valid as the field's. The
 * seccomp and AppArmor annotations have their own files.
 */
import { type FieldError, forbidden, invalid, type Json, obj, str, stringMap } from "./field-errors.js";
import { tolerationsErrors } from "./tolerations.js";

const MIRROR = "kubernetes.io/config.mirror";
const DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";
const TOLERATIONS = "scheduler.alpha.kubernetes.io/tolerations";

/** GetDeletionCostFromPodAnnotations: base-10 int32, no plus sign, no leading zero. */
export function deletionCostValid(value: string): boolean {
  if (!/^(-\d+|0|[1-9]\d*)$/.test(value)) return false;
  const n = Number(value);
  return n >= -2147483648 && n <= 2147483647;
}

const goType = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "boolean" ? "bool" : typeof v;

/** Go's json.Unmarshal into []core.Toleration (no JSON tags: field names match in any case). */
function decodeTolerations(text: string): { tolerations?: Json[]; error?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { error: (e as Error).message };
  }
  if (parsed === null) return { tolerations: [] };
  if (!Array.isArray(parsed))
    return { error: `json: cannot unmarshal ${goType(parsed)} into Go value of type []core.Toleration` };
  const fields: Record<string, [string, string]> = {
    key: ["Key", "string"],
    operator: ["Operator", "core.TolerationOperator"],
    value: ["Value", "string"],
    effect: ["Effect", "core.TaintEffect"],
    tolerationseconds: ["TolerationSeconds", "int64"],
  };
  const out: Json[] = [];
  for (const raw of parsed) {
    if (raw !== null && (typeof raw !== "object" || Array.isArray(raw)))
      return { error: `json: cannot unmarshal ${goType(raw)} into Go value of type core.Toleration` };
    const t: Json = {};
    for (const [k, v] of Object.entries(obj(raw))) {
      const f = fields[k.toLowerCase()];
      if (!f || v === null) continue;
      const [goName, goKind] = f;
      const ok = goKind === "int64" ? Number.isInteger(v) : typeof v === "string";
      if (!ok) {
        const what = typeof v === "number" && goKind === "int64" ? `number ${v}` : goType(v);
        return {
          error: `json: cannot unmarshal ${what} into Go struct field Toleration.${goName} of type ${goKind}`,
        };
      }
      t[goName === "TolerationSeconds" ? "tolerationSeconds" : goName.toLowerCase()] = v;
    }
    out.push(t);
  }
  return { tolerations: out };
}

/** ValidatePodSpecificAnnotations (without seccomp and AppArmor), for the annotations at `at`. */
export function podAnnotationErrors(
  meta: unknown,
  spec: Json,
  at: string,
  allowBadCost = false,
): FieldError[] {
  const annotations = new Map(stringMap(obj(meta).annotations));
  const out: FieldError[] = [];
  const mirror = annotations.get(MIRROR);
  if (mirror !== undefined && str(spec.nodeName) === "")
    out.push(invalid(`${at}[${MIRROR}]`, mirror, "must set spec.nodeName if mirror pod annotation is set"));
  const tolerations = annotations.get(TOLERATIONS) ?? "";
  if (tolerations !== "") {
    const decoded = decodeTolerations(tolerations);
    if (decoded.error !== undefined) out.push(invalid(at, TOLERATIONS, decoded.error));
    else out.push(...tolerationsErrors(decoded.tolerations, `${at}.${TOLERATIONS}`));
  }
  const cost = annotations.get(DELETION_COST);
  if (!allowBadCost && cost !== undefined && !deletionCostValid(cost))
    out.push(invalid(`${at}[${DELETION_COST}]`, cost, "must be a 32bit integer"));
  return out;
}

/** The mirror-pod part of ValidatePodSpecificAnnotationUpdates. */
export function mirrorAnnotationUpdateErrors(meta: unknown, oldMeta: unknown, at: string): FieldError[] {
  const now = new Map(stringMap(obj(meta).annotations));
  const before = new Map(stringMap(obj(oldMeta).annotations));
  if (before.has(MIRROR) && now.get(MIRROR) !== before.get(MIRROR))
    return [forbidden(`${at}[${MIRROR}]`, "may not remove or update mirror pod annotation")];
  if (!before.has(MIRROR) && now.has(MIRROR))
    return [forbidden(`${at}[${MIRROR}]`, "may not add mirror pod annotation")];
  return [];
}

/** Whether the stored pod's deletion cost was already invalid (an update may keep it). */
export const badDeletionCost = (oldMeta: unknown): boolean => {
  const cost = stringMap(obj(oldMeta).annotations).find(([k]) => k === DELETION_COST)?.[1];
  return cost !== undefined && !deletionCostValid(cost);
};
