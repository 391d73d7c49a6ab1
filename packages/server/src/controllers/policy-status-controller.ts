/**
 * PolicyStatusController stands in for kube-controller-manager's
 * validatingadmissionpolicy-status-controller: when a ValidatingAdmissionPolicy's generation is
 * newer than its status.observedGeneration, it type-checks the policy's expressions against the
 * kinds it matches (cel/admission/type-check.ts) and writes `status.observedGeneration` and
 * `status.typeChecking` (`{}` when nothing was found). The check yields to other requests between
 * kinds, and the status is written only if the policy is still at the generation checked.
 */
import { typeCheckValidatingPolicy } from "../cel/admission/index.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import type { StoredObject } from "../storage/mvcc.js";

const BUCKET = "admissionregistration.k8s.io/validatingadmissionpolicies";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const generationOf = (o: StoredObject) => Number((o.metadata as Obj | undefined)?.generation ?? 0);
const observedOf = (o: StoredObject) => Number((isObj(o.status) ? o.status.observedGeneration : 0) ?? 0);
const nameOf = (o: StoredObject) => String((o.metadata as Obj | undefined)?.name ?? "");

export class PolicyStatusController {
  private readonly unsubscribe: () => void;
  private readonly due = new Set<string>();
  private closed = false;

  constructor(private readonly ctx: HandlerContext) {
    this.unsubscribe = ctx.store.subscribe((e) => {
      if (e.bucket === BUCKET && e.type !== "DELETED") this.enqueue(e.object);
    });
    for (const p of ctx.store.list(BUCKET).items) this.enqueue(p);
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
  }

  private enqueue(policy: StoredObject): void {
    const name = nameOf(policy);
    if (generationOf(policy) <= observedOf(policy) || this.due.has(name)) return;
    this.due.add(name);
    // Never from inside a store event (that would reorder events for other subscribers).
    setImmediate(() => {
      this.reconcile(name).catch(() => {
        // A policy that changed or went away meanwhile is checked again on its next event.
      });
    });
  }

  private async reconcile(name: string): Promise<void> {
    this.due.delete(name);
    const policy = this.ctx.store.get(BUCKET, name);
    if (this.closed || !policy || generationOf(policy) <= observedOf(policy)) return;
    const generation = generationOf(policy);
    const warnings = await typeCheckValidatingPolicy(policy, () => new Promise((r) => setImmediate(r)));
    const current = this.ctx.store.get(BUCKET, name);
    if (this.closed || !current || generationOf(current) !== generation) return;
    const status = {
      ...(isObj(current.status) ? current.status : {}),
      observedGeneration: generation,
      typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {},
    };
    this.ctx.store.update(BUCKET, name, { ...current, status });
  }
}
