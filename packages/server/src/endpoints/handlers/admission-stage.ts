/**
 * The admission stages of the write path: the request's attributes, and the chain's mutating and
 * validating phases run on them. Synchronous unless a plugin is async (admission/chain.ts).
 */

import { schemaFor } from "@kubesdk/models";
import type { AdmissionAttributes, AdmissionOperation } from "../../admission/attributes.js";
import type { AdmissionChain } from "../../admission/chain.js";
import { defaultAdmissionChain } from "../../admission/index.js";
import { errors, StatusError } from "../../api/status.js";
import { mergeApplied } from "../../apply/structured-merge.js";
import type { UserInfo } from "../../http/auth.js";
import { warningHeaders } from "../../openapi/field-validation.js";
import { apiVersionOf, ConversionError, type ServedResource } from "../../resources/served.js";
import type { HandlerContext, KubeObject } from "./context.js";
import { andThen, type Maybe } from "./converted.js";

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
  /** Absent when the caller passes it to admissionAttributes (a create's name may change in between). */
  readonly name?: string;
  readonly subresource?: string | undefined;
  readonly object?: KubeObject | undefined;
  readonly oldObject?: KubeObject | undefined;
  readonly user?: UserInfo | undefined;
  readonly dryRun: boolean;
  /** Collects the plugins' warnings (Warning headers of the response). */
  readonly warnings?: string[];
}

/** A served resource's kind and resource as admission names them, made once per resource (both read-only). */
const namesOf = new WeakMap<ServedResource, Pick<AdmissionAttributes, "kind" | "resource">>();

function admissionNames(r: ServedResource): Pick<AdmissionAttributes, "kind" | "resource"> {
  let names = namesOf.get(r);
  if (names === undefined) {
    names = {
      kind: { group: r.group, version: r.version, kind: r.kind },
      resource: { group: r.group, version: r.version, resource: r.resource },
    };
    namesOf.set(r, names);
  }
  return names;
}

/**
 * The attributes of one admission phase. A write passes its request once and the phase's object
 * (and name) apart, instead of spreading a copy of the request for each phase.
 */
export function admissionAttributes(
  r: ServedResource,
  req: AdmissionRequest,
  object: KubeObject | undefined = req.object,
  name: string = req.name ?? "",
): AdmissionAttributes {
  const { kind, resource } = admissionNames(r);
  const attributes: { -readonly [K in keyof AdmissionAttributes]: AdmissionAttributes[K] } = {
    operation: req.operation,
    kind,
    resource,
    subresource: req.subresource ?? "",
    namespace: r.namespaced ? (req.namespace ?? "") : "",
    name,
    object,
    oldObject: req.oldObject,
    userInfo: req.user,
    dryRun: req.dryRun,
  };
  if (req.warnings) attributes.warnings = req.warnings;
  return attributes;
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

/**
 * The attributes with the other served versions of the resource (webhooks registered for one of
 * them are called with the object converted, matchPolicy Equivalent): a custom resource's versions,
 * or a built-in kind's versions stored as one (autoscaling/v1 and v2 HPAs). The object is the same
 * reference, so what plugins change in place reaches the caller.
 */
function withEquivalents(ctx: HandlerContext, a: AdmissionAttributes): AdmissionAttributes {
  const { group, resource, version: own } = a.resource;
  const served = ctx.resources.versionsOf(group, resource);
  const r = served.find((x) => x.version === own);
  if (r === undefined || served.length < 2) return a;
  const convert = r.custom ? customConversion(r) : builtinConversion(r, served);
  if (convert === undefined) return a;
  const versions = served.map((x) => x.version).filter((v) => v !== own);
  return { ...a, equivalents: { versions, convert: failingAsInternal(convert) } };
}

type Convert = (object: Record<string, unknown>, version: string) => Maybe<Record<string, unknown>>;

function customConversion(r: ServedResource): Convert {
  const conversion = r.custom?.conversion;
  return (object, version) => {
    const apiVersion = apiVersionOf({ group: r.group, version });
    if (conversion === undefined) return { ...object, apiVersion };
    return andThen(conversion.convert([object], apiVersion), (xs) => xs[0] as Record<string, unknown>);
  };
}

/** Through the stored shape, when every version converts to it (not two APIs of one object). */
function builtinConversion(r: ServedResource, served: readonly ServedResource[]): Convert | undefined {
  if (!served.every((x) => x.convert === undefined || x.convert.betweenVersions)) return undefined;
  return (object, version) => {
    const stored = r.convert ? r.convert.toStored(object) : object;
    const target = served.find((x) => x.version === version);
    return target?.convert ? target.convert.fromStored(stored) : stored;
  };
}

/** A failed conversion for a webhook is a 500 with the conversion's message (upstream: internal error). */
function failingAsInternal<A extends unknown[], T>(f: (...args: A) => Maybe<T>): (...args: A) => Maybe<T> {
  const internal = (e: unknown) => (e instanceof ConversionError ? errors.internal(e.detail) : (e as Error));
  return (...args) => {
    try {
      const out = f(...args);
      return out instanceof Promise ? out.catch((e: unknown) => Promise.reject(internal(e))) : out;
    } catch (e) {
      throw internal(e);
    }
  };
}

/** Mutating admission: plugins may change `attributes.object` in place. */
export function mutatingAdmission(ctx: HandlerContext, a: AdmissionAttributes): void | Promise<void> {
  const attributes = withEquivalents(ctx, a);
  return run(attributes, () => chainOf(ctx).admit(attributes, ctx));
}

/** Validating admission: the last word before storage. */
export function validatingAdmission(ctx: HandlerContext, a: AdmissionAttributes): void | Promise<void> {
  const attributes = withEquivalents(ctx, a);
  return run(attributes, () => chainOf(ctx).validate(attributes, ctx));
}
