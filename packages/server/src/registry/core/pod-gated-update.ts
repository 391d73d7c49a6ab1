/**
 * A Pod update while the pod has scheduling gates (ValidatePodUpdate's gated part upstream): the
 * node selector and the required node affinity may grow — new selector entries, new requirements
 * at the end of a term's lists, terms where there were none — but nothing in them may change or go.
 * What may change is put back as it was in `next` (the spec the update is compared with).
 */
import { GoSyntax } from "../../api/status.js";
import {
  type FieldError,
  invalid,
  isSet,
  type Json,
  listAt,
  obj,
  renderedMap,
  sameGoValue,
  sameValue,
  stringMap,
} from "../../validation/field-errors.js";

const TERMS = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";

/** A Go slice as json.Marshal writes it: null when unset. */
const slice = (v: unknown, each: (x: unknown) => string): string =>
  Array.isArray(v) ? `[${v.map(each).join(",")}]` : "null";
const requirement = (r: unknown): string => {
  const o = obj(r);
  return `{"Key":${JSON.stringify(o.key ?? "")},"Operator":${JSON.stringify(o.operator ?? "")},"Values":${slice(o.values, (x) => JSON.stringify(x))}}`;
};
/** An internal NodeSelectorTerm as upstream's message shows it (Go field names, no JSON tags). */
const term = (t: unknown): string =>
  `{"MatchExpressions":${slice(obj(t).matchExpressions, requirement)},"MatchFields":${slice(obj(t).matchFields, requirement)}}`;

/** validateNodeSelectorTermHasOnlyAdditions: the old requirements stay first, unchanged. */
function onlyAdditions(now: unknown, before: unknown): boolean {
  const n = obj(now);
  const b = obj(before);
  for (const k of ["matchExpressions", "matchFields"]) {
    const old = listAt(b[k]);
    const added = listAt(n[k]);
    if (listAt(b.matchExpressions).length === 0 && listAt(b.matchFields).length === 0 && added.length > 0)
      return false;
    if (old.length > 0 && (added.length < old.length || !sameValue(added.slice(0, old.length), old)))
      return false;
  }
  return true;
}

/** validateNodeAffinityMutation. */
function nodeAffinityErrors(now: unknown, before: unknown): FieldError[] {
  const oldRequired = obj(before).requiredDuringSchedulingIgnoredDuringExecution;
  if (!isSet(before) || !isSet(oldRequired)) return [];
  const oldTerms = listAt(obj(oldRequired).nodeSelectorTerms);
  const newRequired = obj(now).requiredDuringSchedulingIgnoredDuringExecution;
  const rawTerms = isSet(now) && isSet(newRequired) ? obj(newRequired).nodeSelectorTerms : undefined;
  const newTerms = listAt(rawTerms);
  if (oldTerms.length > 0 && oldTerms.length !== newTerms.length)
    return [
      invalid(
        TERMS,
        new GoSyntax(slice(rawTerms, term)),
        "no additions/deletions to non-empty NodeSelectorTerms list are allowed",
      ),
    ];
  return oldTerms.flatMap((old, i) =>
    onlyAdditions(newTerms[i], old)
      ? []
      : [
          invalid(
            `${TERMS}[${i}]`,
            new GoSyntax(term(newTerms[i])),
            "only additions are allowed (no mutations or deletions)",
          ),
        ],
  );
}

/** validateNodeSelectorMutation: no entry of the old selector removed or changed. */
function nodeSelectorErrors(now: unknown, before: unknown): FieldError[] {
  const next = new Map(stringMap(now));
  const changed = stringMap(before).some(([k, v]) => next.get(k) !== v);
  if (!changed) return [];
  const detail = "only additions to spec.nodeSelector are allowed (no mutations or deletions)";
  return [invalid("spec.nodeSelector", renderedMap(isSet(now) ? now : undefined), detail)];
}

/** The gated-pod rules; `next` is the munged new spec, changed in place. */
export function gatedPodUpdateErrors(next: Json, before: Json): FieldError[] {
  if (listAt(before.schedulingGates).length === 0) return [];
  const out: FieldError[] = [];
  if (!sameGoValue(next.nodeSelector, before.nodeSelector)) {
    out.push(...nodeSelectorErrors(next.nodeSelector, before.nodeSelector));
    next.nodeSelector = before.nodeSelector;
  }
  const oldAffinity = isSet(before.affinity) ? obj(before.affinity).nodeAffinity : undefined;
  const newAffinity = isSet(next.affinity) ? obj(next.affinity).nodeAffinity : undefined;
  if (sameValue(oldAffinity, newAffinity)) return out;
  out.push(...nodeAffinityErrors(newAffinity, oldAffinity));
  const affinity = obj(next.affinity);
  if (!isSet(next.affinity)) {
    if (isSet(oldAffinity)) next.affinity = { nodeAffinity: oldAffinity };
  } else if (!isSet(before.affinity) && !isSet(affinity.podAffinity) && !isSet(affinity.podAntiAffinity))
    next.affinity = before.affinity;
  else next.affinity = { ...affinity, nodeAffinity: oldAffinity };
  return out;
}
