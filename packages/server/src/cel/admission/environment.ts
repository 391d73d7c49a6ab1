/**
 * The CEL environments admission expressions compile in, as upstream builds them: the Kubernetes
 * libraries of CRD rules plus `object`, `oldObject` (dyn), `request` (AdmissionRequest),
 * `namespaceObject` (Namespace), and, where the expression may use them, `params` (dyn) and
 * `authorizer`; `variables` is declared per policy on a clone of these (./variables.ts). Mutating policies' expressions also get `jsonpatch.escapeKey`. One
 * environment per combination, built on first use (upstream pre-builds the same eight).
 */
import type { Environment } from "@marcbachmann/cel-js";
import { baseEnvironment } from "../environment.js";
import { registerAuthorizer } from "./authorizer.js";
import { ObjectTypes } from "./object-types.js";
import { NAMESPACE_TYPE, REQUEST_TYPE } from "./request.js";

export interface AdmissionVariables {
  /** `params` is declared (the policy has a paramKind, or a webhook's matchConditions never). */
  readonly params: boolean;
  /** `authorizer` is declared (not for messageExpression, as upstream). */
  readonly authorizer: boolean;
  /** The mutation library: `jsonpatch.escapeKey` (mutating policies' mutations). */
  readonly patchTypes?: boolean;
}

export interface AdmissionEnvironment {
  readonly env: Environment;
  readonly types: ObjectTypes;
}

const built = new Map<string, AdmissionEnvironment>();

/** Escapes a key for a JSON Pointer (RFC 6901): `~` → `~0`, `/` → `~1`. */
const escapeKey = (k: string) => k.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * A new environment for one combination; `objectType` declares the type of `object` and
 * `oldObject` (type checking against a kind's schema), dyn when not given.
 */
export function buildAdmissionEnvironment(
  v: AdmissionVariables,
  objectType?: (env: Environment) => string,
): AdmissionEnvironment {
  const env = baseEnvironment();
  const types = new ObjectTypes(env);
  const object = objectType ? objectType(env) : "dyn";
  env.registerVariable("object", object);
  env.registerVariable("oldObject", object);
  env.registerVariable("request", types.declare(REQUEST_TYPE));
  env.registerVariable("namespaceObject", types.declare(NAMESPACE_TYPE));
  if (v.params) env.registerVariable("params", "dyn");
  if (v.authorizer) {
    registerAuthorizer(env);
    env.registerVariable("authorizer", "kubernetes.authorization.Authorizer");
  }
  if (v.patchTypes) {
    class JsonPatchLibrary {}
    env.registerType("kubernetes.JSONPatchLibrary", JsonPatchLibrary);
    env.registerConstant("jsonpatch", "kubernetes.JSONPatchLibrary", new JsonPatchLibrary());
    env.registerFunction("kubernetes.JSONPatchLibrary.escapeKey(string): string", (_: unknown, k: string) =>
      escapeKey(k),
    );
  }
  return { env, types };
}

/** The environment for one combination of optional variables. */
export function admissionEnvironment(v: AdmissionVariables): AdmissionEnvironment {
  const key = `${v.params}/${v.authorizer}/${v.patchTypes === true}`;
  let e = built.get(key);
  if (!e) {
    e = buildAdmissionEnvironment(v);
    built.set(key, e);
  }
  return e;
}
