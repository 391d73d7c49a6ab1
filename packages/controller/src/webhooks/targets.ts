/**
 * What an admission handler is registered for: one kind at one version, named either by a
 * `defineCustomResource` definition (its storage version unless told otherwise) or by hand for any
 * other kind (built-in ones included). The default path follows controller-runtime's convention,
 * `/validate-<group with dashes>-<version>-<kind in lower case>`, so manifests written for Go
 * operators keep working.
 */
import type { CustomResourceDefinitionOf } from "@kubesdk/client";
import { ControllerError } from "../errors.js";

export interface KindTarget {
  /** API group, "" for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The resource (plural) name, e.g. "webapps". */
  readonly resource: string;
  readonly namespaced: boolean;
}

/** A hand-written target or a custom resource definition (optionally at one of its versions). */
export type WebhookTarget = KindTarget | CustomResourceDefinitionOf;

function isDefinition(target: WebhookTarget): target is CustomResourceDefinitionOf {
  return typeof (target as CustomResourceDefinitionOf).manifest === "function";
}

/** The kind a handler sees: the definition's `version` (default: its storage version). */
export function resolveTarget(target: WebhookTarget, version?: string): KindTarget {
  if (!isDefinition(target)) return target;
  const v = version ?? target.storageVersion;
  if (!(v in target.versions))
    throw new ControllerError("INVALID_DECLARATION", `${target.kind} has no version ${v}`);
  return {
    group: target.group,
    version: v,
    kind: target.kind,
    resource: target.plural,
    namespaced: target.namespaced,
  };
}

export function defaultPath(prefix: "validate" | "mutate", t: KindTarget): string {
  const group = t.group === "" ? "core" : t.group.replaceAll(".", "-");
  return `/${prefix}-${group}-${t.version}-${t.kind.toLowerCase()}`;
}

/**
 * The webhook's name in a configuration: a fully qualified name, unique per kind and purpose, and
 * per path when the handler has a path of its own (several handlers for one kind).
 */
export function webhookName(prefix: "validate" | "mutate", t: KindTarget, path?: string): string {
  const domain = t.group === "" ? "core.k8s.io" : t.group;
  const own =
    path === undefined
      ? ""
      : `${path
          .replace(/[^a-z0-9]+/gi, "-")
          .replace(/^-+|-+$/g, "")
          .toLowerCase()}.`;
  return `${own}${prefix === "validate" ? "v" : "m"}${t.kind.toLowerCase()}.${domain}`;
}
