/**
 * How kube-apiserver 1.37 validates the name of each built-in kind: one table, keyed by
 * `group/resource`, that a per-kind strategy can take its entry from.
 *
 * Each entry says
 * - `format`: the name format the kind's own validation applies (to metadata.name, and to
 *   metadata.generateName as a prefix unless `checksGenerateName` is false);
 * - `meta`: which ObjectMeta validation the kind's own validation runs: "core" (apimachinery's plus
 *   the core API's finalizer-name rule), "generic" (apimachinery's only) or "none" (the kind's
 *   validation does not look at metadata; only the common pass that every create gets afterwards
 *   applies, with path-segment names);
 * - `extra`: name rules that depend on the rest of the object (CronJob length, indexed Job
 *   hostnames, ClusterTrustBundle signer prefixes, APIService and CRD names).
 * Kinds not listed use DNS-1123 subdomain names with core metadata validation.
 */
import type { FieldError } from "../api/status.js";
import {
  anyName,
  dns1123LabelProblems,
  dnsLabel,
  dnsSubdomain,
  ipAddressName,
  longName,
  type NameFormat,
  pathSegment,
} from "./name-formats.js";
import { labelValueProblems } from "./object-meta.js";

export type MetaValidation = "core" | "generic" | "none";

export interface KindNameRule {
  readonly format: NameFormat;
  /** For kinds whose name rule depends on the spec: the format for this object. */
  readonly formatFor?: (obj: Record<string, unknown>) => NameFormat;
  readonly meta: MetaValidation;
  /** false where the kind validates metadata without looking at generateName (DeviceClass). */
  readonly checksGenerateName?: boolean;
  readonly extra?: (obj: Record<string, unknown>, name: string) => FieldError[];
}

const subdomain: KindNameRule = { format: dnsSubdomain, meta: "core" };
const rbac: KindNameRule = { format: pathSegment, meta: "core" };
const admission: KindNameRule = { format: dnsSubdomain, meta: "generic" };

function spec(obj: Record<string, unknown>): Record<string, unknown> {
  const s = obj.spec;
  return typeof s === "object" && s !== null ? (s as Record<string, unknown>) : {};
}

const invalidName = (name: string, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field: "metadata.name",
  value: name,
  detail,
});

/** The CronJob controller names its Jobs `<name>-<11 characters>`, which must stay a 63-character label. */
function cronJobLength(_obj: Record<string, unknown>, name: string): FieldError[] {
  return name.length > 52 ? [invalidName(name, "must be no more than 52 characters")] : [];
}

/**
 * A Job's name becomes the value of its pod template's `job-name` labels, so a name over 63
 * characters fails there (upstream reports it at spec.template.labels); an indexed Job's pods are called `<name>-<index>`, so the last one must be
 * a DNS label.
 */
function jobNameUses(obj: Record<string, unknown>, name: string): FieldError[] {
  const out: FieldError[] = [];
  const template = spec(obj).template as { metadata?: { labels?: Record<string, unknown> } } | undefined;
  // Each distinct value once: the job-name labels carry the same one.
  for (const value of new Set(Object.values(template?.metadata?.labels ?? {})))
    if (typeof value === "string")
      for (const msg of labelValueProblems(value))
        out.push({ type: "FieldValueInvalid", field: "spec.template.labels", value, detail: msg });
  const s = spec(obj);
  const completions = s.completions;
  if (s.completionMode !== "Indexed" || typeof completions !== "number" || completions <= 0) return out;
  const hostname = `${name}-${completions - 1}`;
  if (dns1123LabelProblems(hostname).length > 0)
    out.push(invalidName(name, `will not able to create pod with invalid DNS label: ${hostname}`));
  return out;
}

/**
 * A ClusterTrustBundle for a signer is named `<signer with / as :>:<subdomain>`; one without a
 * signer is a subdomain without colons.
 */
function trustBundleFormat(obj: Record<string, unknown>): NameFormat {
  const signer = typeof spec(obj).signerName === "string" ? (spec(obj).signerName as string) : "";
  return (name, prefix) => {
    if (signer === "") {
      if (name.includes(":")) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
      return dnsSubdomain(name, prefix);
    }
    const required = `${signer.replaceAll("/", ":")}:`;
    if (!name.startsWith(required))
      return [`ClusterTrustBundle for signerName ${signer} must be named with prefix ${required}`];
    return dnsSubdomain(name.slice(required.length), prefix);
  };
}

/** An APIService is named `<version>.<group>`. */
function apiServiceFormat(obj: Record<string, unknown>): NameFormat {
  const s = spec(obj);
  const required = `${String(s.version ?? "")}.${String(s.group ?? "")}`;
  return (name, prefix) => {
    const segment = pathSegment(name, prefix);
    if (segment.length > 0) return segment;
    return name === required ? [] : [`must be \`spec.version+"."+spec.group\`: "${required}"`];
  };
}

/** `group/resource` → the kind's name rule. */
export const NAME_RULES: Readonly<Record<string, KindNameRule>> = {
  "/namespaces": { format: dnsLabel, meta: "core" },
  // RelaxedServiceNameValidation is GA and locked on in 1.37: a DNS-1123 label, not DNS-1035.
  "/services": { format: dnsLabel, meta: "core" },
  // core/v1 Events keep their legacy validation, which does not look at metadata.
  "/events": { format: pathSegment, meta: "none" },
  "events.k8s.io/events": subdomain,
  "apps/statefulsets": { format: dnsLabel, meta: "core" },
  "batch/cronjobs": { format: dnsSubdomain, meta: "core", extra: cronJobLength },
  "batch/jobs": { format: dnsSubdomain, meta: "core", extra: jobNameUses },
  "rbac.authorization.k8s.io/roles": rbac,
  "rbac.authorization.k8s.io/clusterroles": rbac,
  "rbac.authorization.k8s.io/rolebindings": rbac,
  "rbac.authorization.k8s.io/clusterrolebindings": rbac,
  "policy/poddisruptionbudgets": { format: pathSegment, meta: "none" },
  "certificates.k8s.io/certificatesigningrequests": { format: anyName, meta: "core" },
  "certificates.k8s.io/clustertrustbundles": {
    format: dnsSubdomain,
    formatFor: trustBundleFormat,
    meta: "core",
  },
  "coordination.k8s.io/leases": { format: dnsSubdomain, meta: "generic" },
  "networking.k8s.io/ipaddresses": { format: ipAddressName, meta: "core" },
  // These two validate metadata with the options form, which leaves generateName alone.
  "resource.k8s.io/deviceclasses": { format: longName, meta: "core", checksGenerateName: false },
  "/replicationcontrollers": { format: longName, meta: "core", checksGenerateName: false },
  "node.k8s.io/runtimeclasses": { format: dnsSubdomain, meta: "generic" },
  "apiregistration.k8s.io/apiservices": {
    format: pathSegment,
    formatFor: apiServiceFormat,
    meta: "generic",
  },
  "admissionregistration.k8s.io/mutatingwebhookconfigurations": admission,
  "admissionregistration.k8s.io/validatingwebhookconfigurations": admission,
  "admissionregistration.k8s.io/mutatingadmissionpolicies": admission,
  "admissionregistration.k8s.io/mutatingadmissionpolicybindings": admission,
  "admissionregistration.k8s.io/validatingadmissionpolicies": admission,
  "admissionregistration.k8s.io/validatingadmissionpolicybindings": admission,
  // The CRD strategy checks `<plural>.<group>` itself (crd/validate-crd.ts).
  "apiextensions.k8s.io/customresourcedefinitions": admission,
};

export const DEFAULT_NAME_RULE: KindNameRule = subdomain;

export function nameRuleFor(group: string, resource: string): KindNameRule {
  return NAME_RULES[`${group}/${resource}`] ?? DEFAULT_NAME_RULE;
}

/** The name format of a kind for this object (some depend on its spec). */
export function nameFormatOf(rule: KindNameRule, obj: Record<string, unknown>): NameFormat {
  return rule.formatFor ? rule.formatFor(obj) : rule.format;
}
