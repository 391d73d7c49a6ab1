/**
 * The admission stages of the write path: the request's attributes, and the chain's mutating and
 * validating phases run on them. Synchronous unless a plugin is async (admission/chain.ts).
 */

import { schemaFor } from "@kubesdk/models";
import type { AdmissionAttributes, AdmissionOperation } from "../../admission/attributes.js";
import type { AdmissionChain } from "../../admission/chain.js";
import type { AdmissionContext, EquivalentVersion } from "../../admission/context.js";
import { defaultAdmissionChain } from "../../admission/index.js";
import { StatusError } from "../../api/status.js";
import { mergeApplied } from "../../apply/structured-merge.js";
import { NONE_CONVERSION } from "../../crd/conversion.js";
import type { UserInfo } from "../../http/auth.js";
import { warningHeaders } from "../../openapi/field-validation.js";
import type { ServedResource } from "../../resources/served.js";
import type { HandlerContext, KubeObject } from "./context.js";

// Apply configurations of mutating policies merge as server-side apply does, by the kind's schema.
const DEFAULT_CHAIN = defaultAdmissionChain(
  (object, applied, kind) => mergeApplied(object, applied, schemaFor(kind)) as Record<string, unknown>,
);

function chainOf(ctx: HandlerContext): AdmissionChain {
  return ctx.admission ?? DEFAULT_CHAIN;
}

export interface AdmissionRequest {
  readonly operation: AdmissionOperation;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly subresource?: string | undefined;
  readonly object?: KubeObject | undefined;
  readonly oldObject?: KubeObject | undefined;
  readonly user?: UserInfo | undefined;
  readonly dryRun: boolean;
  /** Collects the plugins' warnings (Warning headers of the response). */
  readonly warnings?: string[];
}

export function admissionAttributes(r: ServedResource, req: AdmissionRequest): AdmissionAttributes {
  return {
    operation: req.operation,
    kind: { group: r.group, version: r.version, kind: r.kind },
    resource: { group: r.group, version: r.version, resource: r.resource },
    subresource: req.subresource ?? "",
    namespace: r.namespaced ? (req.namespace ?? "") : "",
    name: req.name,
    object: req.object,
    oldObject: req.oldObject,
    userInfo: req.user,
    dryRun: req.dryRun,
    ...(req.warnings ? { warnings: req.warnings } : {}),
  };
}

/** The other served versions of a custom resource, each with the CRD's conversion to reach it. */
function equivalentsOf(ctx: HandlerContext, a: AdmissionAttributes): EquivalentVersion[] {
  const { group, version, resource } = a.resource;
  return ctx.resources
    .versionsOf(group, resource)
    .filter((r) => r.version !== version && r.custom !== undefined)
    .map((r) => ({
      kind: { group: r.group, version: r.version, kind: r.kind },
      resource: { group: r.group, version: r.version, resource: r.resource },
      convert: (object, apiVersion) => {
        const out = (r.custom?.conversion ?? NONE_CONVERSION).convert([object], apiVersion);
        return Array.isArray(out) ? (out[0] as KubeObject) : out.then((o) => o[0] as KubeObject);
      },
    }));
}

/** What admission plugins may use of the handler's context. */
function admissionContext(ctx: HandlerContext): AdmissionContext {
  return { store: ctx.store, now: ctx.now, equivalents: (a) => equivalentsOf(ctx, a) };
}

/** A refusal still carries the warnings admission gave so far (upstream writes them on errors too). */
function withWarnings(a: AdmissionAttributes, e: unknown): unknown {
  if (e instanceof StatusError && a.warnings && a.warnings.length > 0)
    e.headers = { ...e.headers, ...warningHeaders(a.warnings) };
  return e;
}

function run(a: AdmissionAttributes, phase: () => void | Promise<void>): void | Promise<void> {
  try {
    const pending = phase();
    if (pending)
      return pending.catch((e: unknown) => {
        throw withWarnings(a, e);
      });
  } catch (e) {
    throw withWarnings(a, e);
  }
}

/** Mutating admission: plugins may change `attributes.object` in place. */
export function mutatingAdmission(ctx: HandlerContext, a: AdmissionAttributes): void | Promise<void> {
  return run(a, () => chainOf(ctx).admit(a, admissionContext(ctx)));
}

/** Validating admission: the last word before storage. */
export function validatingAdmission(ctx: HandlerContext, a: AdmissionAttributes): void | Promise<void> {
  return run(a, () => chainOf(ctx).validate(a, admissionContext(ctx)));
}
