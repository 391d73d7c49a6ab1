/**
 * The default class of a kind (StorageClass, IngressClass), as DefaultStorageClass and
 * DefaultIngressClass admission pick it: among the classes annotated as default with "true", the
 * newest, then the first by name among equally new ones.
 */
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { type Json, objectOf, recordAt } from "./target.js";

/** The default class's name in `bucket`, or undefined when no class is annotated as default. */
export function defaultClassName(
  ctx: AdmissionContext,
  bucket: string,
  annotations: readonly string[],
): string | undefined {
  let best: { name: string; created: number } | undefined;
  for (const c of ctx.store.list(bucket).items as Json[]) {
    const meta = recordAt(c, "metadata");
    const own = recordAt(meta, "annotations");
    if (!annotations.some((k) => own[k] === "true")) continue;
    const name = String(meta.name ?? "");
    const created = Date.parse(String(meta.creationTimestamp ?? "")) || 0;
    if (!best || created > best.created || (created === best.created && name < best.name))
      best = { name, created };
  }
  return best?.name;
}

/** What a default-class plugin defaults: which kind, which field, from which classes. */
export interface DefaultClassRule {
  readonly name: string;
  readonly group: string;
  readonly resource: string;
  /** The spec field naming the class; set (even empty) means the object chose. */
  readonly field: string;
  /** The legacy annotation that also names the class. */
  readonly classAnnotation: string;
  readonly classes: string;
  readonly defaultAnnotations: readonly string[];
}

/** A plugin giving a new object that names no class the default class (default-storage-class.ts, default-ingress-class.ts). */
export function defaultClassPlugin(rule: DefaultClassRule): AdmissionPlugin {
  return {
    name: rule.name,
    handles: handlesOnly("CREATE"),
    admit(a, ctx) {
      const obj = objectOf(a, rule.group, rule.resource);
      if (!obj) return;
      const spec = recordAt(obj, "spec");
      const named = recordAt(obj.metadata, "annotations")[rule.classAnnotation] !== undefined;
      if (named || (spec[rule.field] !== undefined && spec[rule.field] !== null)) return;
      const name = defaultClassName(ctx, rule.classes, rule.defaultAnnotations);
      if (name !== undefined) obj.spec = { ...spec, [rule.field]: name };
    },
  };
}
