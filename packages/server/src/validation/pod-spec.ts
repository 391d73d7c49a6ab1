/**
 * ValidatePodSpec for the fields most specs set: volumes, resource claims, containers and init
 * containers, restart and DNS policies and DNS config, node selector, the names a pod refers to
 * (service account, node, priority class, hostname, subdomain), host aliases, the active deadline,
 * security contexts and the pod-wide security rules (pod-security-rules.ts), affinity, topology
 * spread, tolerations and the OS rules (pod-os.ts). The fields docs/divergences.md SV1d lists are
 * not checked here.
 */
import { affinityErrors } from "./affinity.js";
import { containersErrors, dnsLabelErrors, initContainersErrors } from "./containers.js";
import {
  type FieldError,
  invalid,
  listAt,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { labelMapErrors } from "./label-selector.js";
import { dns1123SubdomainProblems } from "./name-formats.js";
import { dnsConfigErrors, hostAliasErrors } from "./pod-dns.js";
import { podOsErrors } from "./pod-os.js";
import { podResourcesErrors } from "./pod-resources.js";
import { podSecurityRuleErrors } from "./pod-security-rules.js";
import { podClaimNames, podResourceClaimErrors } from "./resource-claims.js";
import { podSecurityContextErrors } from "./security-context.js";
import { tolerationsErrors } from "./tolerations.js";
import { topologySpreadErrors } from "./topology-spread.js";
import { volumesErrors } from "./volumes.js";

type Json = Record<string, unknown>;

const RESTART_POLICIES = ["Always", "OnFailure", "Never"];
const DNS_POLICIES = ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"];
const INT32_MAX = 2147483647;

/** A policy field upstream checks against a list, Required when empty. */
function oneOf(value: unknown, field: string, supported: readonly string[]): FieldError[] {
  const v = stringAt(value);
  if (v === "") return [required(field)];
  return supported.includes(v) ? [] : [notSupported(field, v, supported)];
}

function subdomainName(value: unknown, field: string): FieldError[] {
  const v = stringAt(value);
  return v === "" ? [] : dns1123SubdomainProblems(v).map((m) => invalid(field, v, m));
}

function referenceErrors(spec: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  out.push(...subdomainName(spec.serviceAccountName, `${at}.serviceAccountName`));
  out.push(...subdomainName(spec.nodeName, `${at}.nodeName`));
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === "number" && (deadline < 1 || deadline > INT32_MAX))
    out.push(
      invalid(`${at}.activeDeadlineSeconds`, deadline, `must be between 1 and ${INT32_MAX}, inclusive`),
    );
  for (const k of ["hostname", "subdomain"]) {
    const v = stringAt(spec[k]);
    if (v !== "") out.push(...dnsLabelErrors(v, `${at}.${k}`));
  }
  out.push(...tolerationsErrors(spec.tolerations, `${at}.tolerations`));
  out.push(...hostAliasErrors(spec.hostAliases, `${at}.hostAliases`));
  out.push(...subdomainName(spec.priorityClassName, `${at}.priorityClassName`));
  return out;
}

function imagePullSecretErrors(secrets: unknown, at: string): FieldError[] {
  const out: FieldError[] = [];
  listAt(secrets).forEach((raw, i) => {
    const ref = objectAt(raw);
    const extra = Object.keys(ref).filter((k) => k !== "name");
    if (extra.length > 0)
      out.push(invalid(`${at}[${i}]`, ref, "imagePullSecrets must only reference the name"));
  });
  return out;
}

/** ValidatePodSpec (the checked subset), fields reported under `at`. */
/**
 * A host-network pod's ports are the host's, so a container's hostPort other than its containerPort
 * is refused (an unset one is defaulted to it in pods, and allowed in templates, which are not
 * defaulted). Upstream checks the (regular) containers only.
 */
function hostNetworkPortErrors(spec: Json, at: string): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const out: FieldError[] = [];
  listAt(spec.containers).forEach((c, i) => {
    listAt(objectAt(c).ports).forEach((raw, j) => {
      const p = objectAt(raw);
      if (typeof p.hostPort === "number" && p.hostPort !== 0 && p.hostPort !== p.containerPort)
        out.push(
          invalid(
            `${at}.containers[${i}].ports[${j}].hostPort`,
            p.hostPort,
            "must match `containerPort` when `hostNetwork` is true",
          ),
        );
    });
  });
  return out;
}

export function podSpecErrors(spec: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  if (spec.terminationGracePeriodSeconds == null) out.push(required(`${at}.terminationGracePeriodSeconds`));
  const volumes = volumesErrors(spec.volumes, `${at}.volumes`);
  out.push(...volumes.errors);
  out.push(...podResourceClaimErrors(spec.resourceClaims, `${at}.resourceClaims`));
  const pod = {
    volumes: volumes.names,
    claims: podClaimNames(spec.resourceClaims),
    grace: spec.terminationGracePeriodSeconds,
    restartPolicy: spec.restartPolicy,
    hostUsers: spec.hostUsers !== false,
  };
  out.push(...containersErrors(spec.containers, `${at}.containers`, pod));
  out.push(...initContainersErrors(spec.initContainers, spec.containers, `${at}.initContainers`, pod));
  out.push(...podResourcesErrors(spec, `${at}.resources`, pod.claims));
  out.push(...oneOf(spec.restartPolicy, `${at}.restartPolicy`, RESTART_POLICIES));
  out.push(...oneOf(spec.dnsPolicy, `${at}.dnsPolicy`, DNS_POLICIES));
  out.push(...labelMapErrors(spec.nodeSelector, `${at}.nodeSelector`));
  out.push(...hostNetworkPortErrors(spec, at));
  out.push(...podSecurityContextErrors(spec, `${at}.securityContext`));
  out.push(...imagePullSecretErrors(spec.imagePullSecrets, `${at}.imagePullSecrets`));
  out.push(...affinityErrors(spec.affinity, `${at}.affinity`));
  out.push(...dnsConfigErrors(spec, `${at}.dnsConfig`));
  out.push(...topologySpreadErrors(spec.topologySpreadConstraints, `${at}.topologySpreadConstraints`));
  out.push(...podSecurityRuleErrors(spec, at));
  out.push(...referenceErrors(spec, at));
  out.push(...podOsErrors(spec, at));
  return out;
}
