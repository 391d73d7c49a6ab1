/**
 * The policies and bindings in force, read from the store on each request (so a policy applies
 * from the write that stored it; kube-apiserver applies it once its informer has seen it) and
 * compiled once per stored generation: a compiled policy is kept, by uid, while its resourceVersion
 * stays (the chain is shared by every server in the process, so the key is the uid, not the name).
 * Policies are visited in name order, each with its bindings in name order.
 */
import type { AdmissionContext } from "../context.js";
import { isObj, nameOf, type Obj } from "./json.js";

const MAX_CACHED = 1000;

export interface PolicyKinds {
  /** Store buckets of the policy and binding resources. */
  readonly policies: string;
  readonly bindings: string;
}

export interface PolicyWithBindings<C> {
  readonly compiled: C;
  readonly bindings: readonly Obj[];
}

const byName = (x: Obj, y: Obj) => (nameOf(x) < nameOf(y) ? -1 : nameOf(x) > nameOf(y) ? 1 : 0);

export class PolicySource<C> {
  private readonly cache = new Map<string, { rv: string; compiled: C }>();

  constructor(
    private readonly kinds: PolicyKinds,
    private readonly compile: (policy: Obj) => C,
  ) {}

  /** The policies that have at least one binding, compiled, with their bindings. */
  active(ctx: AdmissionContext): PolicyWithBindings<C>[] {
    // Every write asks; nearly always nothing is bound, which the count says without a list.
    if (ctx.store.count(this.kinds.bindings) === 0) return [];
    const bindings = ctx.store.list(this.kinds.bindings).items;
    if (bindings.length === 0) return [];
    const byPolicy = new Map<string, Obj[]>();
    for (const b of [...bindings].sort(byName)) {
      const spec = isObj(b.spec) ? b.spec : {};
      const name = String(spec.policyName ?? "");
      byPolicy.set(name, [...(byPolicy.get(name) ?? []), b]);
    }
    const out: PolicyWithBindings<C>[] = [];
    for (const p of [...ctx.store.list(this.kinds.policies).items].sort(byName)) {
      const bound = byPolicy.get(nameOf(p));
      if (bound) out.push({ compiled: this.compiled(p), bindings: bound });
    }
    return out;
  }

  private compiled(policy: Obj): C {
    const meta = isObj(policy.metadata) ? policy.metadata : {};
    const uid = String(meta.uid ?? "");
    const rv = String(meta.resourceVersion ?? "");
    const hit = this.cache.get(uid);
    if (hit && hit.rv === rv) return hit.compiled;
    const compiled = this.compile(policy);
    // Deleted policies' entries are dropped wholesale now and then rather than tracked.
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(uid, { rv, compiled });
    return compiled;
  }
}
