// A resource described by hand (`kube.custom({ group, version, plural, … })`), checked before any
// request names it, and how to tell it from a definition made by `defineCustomResource`.

import type { CustomResourceDefinitionOf } from "./custom-resources/definition.js";
import { ClientError } from "./errors.js";
import type { ResourceTarget } from "./resource-target.js";

/** A resource the client has no generated types for (a CRD's, or any resource addressed by name). */
export interface CustomResource {
  /** API group, e.g. "stable.example.com" ("" for the core group). */
  readonly group: string;
  readonly version: string;
  /** Plural resource name used in URLs, e.g. "crontabs". */
  readonly plural: string;
  readonly namespaced: boolean;
  /** The kind, used to fill in list items' apiVersion/kind. */
  readonly kind?: string;
  /** Subresources the resource serves (e.g. ["status", "scale"]); leave out to allow any. */
  readonly subresources?: readonly string[];
}

export function isDefinition(
  value: CustomResource | CustomResourceDefinitionOf,
): value is CustomResourceDefinitionOf {
  return typeof (value as { manifest?: unknown }).manifest === "function";
}

// What Kubernetes accepts for API groups, versions and CRD plurals.
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const GROUP = /^$|^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function customTarget(resource: CustomResource): ResourceTarget {
  const bad = (what: string) => new ClientError("INVALID_OPTION", `custom resource: ${what}`);
  const matches = (value: unknown, pattern: RegExp) => typeof value === "string" && pattern.test(value);
  if (!matches(resource?.group, GROUP))
    throw bad(`group ${JSON.stringify(resource?.group)} is not "" or a DNS subdomain`);
  if (!matches(resource.version, DNS_LABEL))
    throw bad(`version ${JSON.stringify(resource.version)} is not a DNS label`);
  if (!matches(resource.plural, DNS_LABEL))
    throw bad(`plural ${JSON.stringify(resource.plural)} is not a DNS label`);
  if (typeof resource.namespaced !== "boolean") throw bad("namespaced must be true or false");
  return {
    group: resource.group,
    version: resource.version,
    plural: resource.plural,
    namespaced: resource.namespaced,
    ...(resource.kind !== undefined ? { kind: resource.kind } : {}),
    builtin: false,
    ...(resource.subresources !== undefined ? { subresources: resource.subresources } : {}),
  };
}
