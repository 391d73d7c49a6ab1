/**
 * Priority (upstream plugin/pkg/admission/priority): a new pod's `spec.priority` and
 * `preemptionPolicy` come from its PriorityClass, or from the global default class when it names
 * none (whose name it then takes), or are 0 and PreemptLowerPriority when there is no default. A
 * class that does not exist, or a priority or policy the client set that differs from the class's,
 * is refused (403). An update keeps the values the create gave. In the validating phase a second
 * `globalDefault: true` class is refused.
 */
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, forbidden, handlesOnly } from "../plugin.js";
import { isRecord, type Json, objectOf, recordAt } from "./target.js";

const CLASSES = "scheduling.k8s.io/priorityclasses";
const DEFAULT_POLICY = "PreemptLowerPriority";

const nameOf = (o: Json) => String(recordAt(o, "metadata").name ?? "");

/** The global default class; with several (a race upstream allows), the lowest value wins. */
function defaultClass(ctx: AdmissionContext): Json | undefined {
  let found: Json | undefined;
  for (const pc of ctx.store.list(CLASSES).items as Json[])
    if (pc.globalDefault === true && (!found || Number(found.value ?? 0) > Number(pc.value ?? 0))) found = pc;
  return found;
}

interface Resolved {
  readonly className: string;
  readonly priority: number;
  readonly policy: string;
}

function resolve(a: AdmissionAttributes, ctx: AdmissionContext, className: string): Resolved {
  if (className === "") {
    const pc = defaultClass(ctx);
    if (!pc) return { className: "", priority: 0, policy: DEFAULT_POLICY };
    return { className: nameOf(pc), priority: Number(pc.value ?? 0), policy: String(pc.preemptionPolicy) };
  }
  const pc = ctx.store.get(CLASSES, className) as Json | undefined;
  if (!pc) throw forbidden(a, `no PriorityClass with name ${className} was found`);
  return { className, priority: Number(pc.value ?? 0), policy: String(pc.preemptionPolicy) };
}

function admitNewPod(a: AdmissionAttributes, ctx: AdmissionContext, pod: Json): void {
  const spec = recordAt(pod, "spec");
  pod.spec = spec;
  const r = resolve(a, ctx, typeof spec.priorityClassName === "string" ? spec.priorityClassName : "");
  if (r.className !== "") spec.priorityClassName = r.className;
  if (typeof spec.priority === "number" && spec.priority !== r.priority)
    throw forbidden(
      a,
      `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${r.priority} from the given PriorityClass name`,
    );
  spec.priority = r.priority;
  if (typeof spec.preemptionPolicy === "string" && spec.preemptionPolicy !== r.policy)
    throw forbidden(
      a,
      `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${r.policy} from the given PriorityClass name`,
    );
  spec.preemptionPolicy = r.policy;
}

/** An update keeps what the create resolved when the client left it out. */
function keepOnUpdate(pod: Json, old: Json): void {
  const spec = recordAt(pod, "spec");
  const before = recordAt(old, "spec");
  pod.spec = spec;
  for (const field of ["priority", "preemptionPolicy"])
    if (spec[field] === undefined && before[field] !== undefined) spec[field] = before[field];
}

function validateClass(a: AdmissionAttributes, ctx: AdmissionContext, pc: Json): void {
  if (pc.globalDefault !== true) return;
  const current = defaultClass(ctx);
  if (!current) return;
  if (a.operation === "CREATE" || nameOf(current) !== nameOf(pc))
    throw forbidden(
      a,
      `PriorityClass ${nameOf(current)} is already marked as default. Only one default can exist`,
    );
}

export const priority: AdmissionPlugin = {
  name: "Priority",
  handles: handlesOnly("CREATE", "UPDATE"),
  admit(a, ctx) {
    const pod = objectOf(a, "", "pods");
    if (!pod) return;
    if (a.operation === "CREATE") admitNewPod(a, ctx, pod);
    else if (isRecord(a.oldObject)) keepOnUpdate(pod, a.oldObject);
  },
  validate(a, ctx) {
    const pc = objectOf(a, "scheduling.k8s.io", "priorityclasses");
    if (pc) validateClass(a, ctx, pc);
  },
};
