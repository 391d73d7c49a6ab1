/**
 * The values admission expressions are evaluated on, built from a request's plain input: on the
 * event loop (evaluate.ts) and, for an expression sent to a rule worker, on that thread
 * (offload-job.ts), so that both see the same `object`, `request`, `namespaceObject` and `params`.
 */
import { dynToCel } from "../schema-types.js";
import { authorizerFor } from "./authorizer.js";
import { type AdmissionVariables, admissionEnvironment } from "./environment.js";
import {
  type AdmissionRequestInput,
  NAMESPACE_TYPE,
  namespaceJson,
  REQUEST_TYPE,
  requestJson,
} from "./request.js";

/** What admission expressions read about one request (plain data: it may travel to a worker). */
export interface AdmissionInput {
  /** The object written (null on DELETE). */
  readonly object: unknown;
  /** The stored object (null on CREATE). */
  readonly oldObject: unknown;
  readonly request: AdmissionRequestInput;
  /** The request's namespace object, when the resource is namespaced and the namespace exists. */
  readonly namespace: Record<string, unknown> | undefined;
  /** The binding's param object; null when the policy has none. */
  readonly params: unknown;
  /** Whether the requester may do anything (the answer of `authorizer` checks). */
  readonly authorized: boolean;
}

/** The activation's variables; `variables` is the object the request's bound variables go into. */
export function activationValues(
  input: AdmissionInput,
  opts: AdmissionVariables,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const { types } = admissionEnvironment(opts);
  return {
    object: dynToCel(input.object ?? null),
    oldObject: dynToCel(input.oldObject ?? null),
    request: types.value(REQUEST_TYPE, requestJson(input.request)),
    namespaceObject: types.value(NAMESPACE_TYPE, namespaceJson(input.namespace)),
    variables,
    ...(opts.params ? { params: dynToCel(input.params ?? null) } : {}),
    ...(opts.authorizer ? { authorizer: authorizerFor(input.authorized) } : {}),
  };
}
