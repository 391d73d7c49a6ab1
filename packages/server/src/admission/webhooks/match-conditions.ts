/**
 * matchConditions at request time: every CEL condition must be true for the webhook to be called
 * (one false wins over errors); an evaluation error is the webhook's failure under failurePolicy
 * Fail (a 403 naming the expression, as upstream) and skips it under Ignore. They are evaluated as
 * upstream's webhook matcher does, in the admission environment policies' match conditions use
 * (cel/admission: typed `request`, `authorizer`, no params or namespace object), each webhook's
 * conditions within their own cost budget; and paced as policies are: a request whose conditions
 * are expensive gives the event loop back between them (docs/divergences.md CEL9).
 */
import { failure, qualifiedName, type StatusError } from "../../api/status.js";
import {
  type AdmissionInput,
  type CompiledMatchConditions,
  type CostPacer,
  compileMatchConditions,
  type MatchResult,
} from "../../cel/admission/index.js";
import type { AdmissionAttributes } from "../attributes.js";
import { requesterAuthorized, requestInput } from "../policies/request-input.js";
import type { Webhook } from "./configurations.js";

/** Compiled conditions by their JSON (configurations are read on every request; bounded). */
const compiled = new Map<string, CompiledMatchConditions>();
const KEPT = 1000;

function compiledConditions(w: Webhook): CompiledMatchConditions {
  const key = JSON.stringify(w.matchConditions.map((c) => [c.name, c.expression]));
  let c = compiled.get(key);
  if (!c) {
    c = compileMatchConditions(w.matchConditions.map((m) => ({ name: m.name, expression: m.expression })));
    if (compiled.size >= KEPT) compiled.clear();
    compiled.set(key, c);
  }
  return c;
}

function evaluationError(a: AdmissionAttributes, why: string): StatusError {
  const gr = qualifiedName({ group: a.resource.group, resource: a.resource.resource });
  const name = a.name;
  return failure(403, "Forbidden", `${gr} "${name}" is forbidden: ${why}`, {
    name,
    ...(a.resource.group ? { group: a.resource.group } : {}),
    kind: a.resource.resource,
  });
}

/** What the conditions read: upstream passes no params and no namespace object to a webhook's. */
function conditionsInput(
  a: AdmissionAttributes,
  object: Record<string, unknown> | undefined,
): AdmissionInput {
  return {
    object: object ?? null,
    oldObject: a.oldObject ?? null,
    request: requestInput(a),
    namespace: undefined,
    params: null,
    authorized: requesterAuthorized(a),
  };
}

function selected(result: MatchResult, a: AdmissionAttributes): boolean {
  if ("error" in result) throw evaluationError(a, result.error);
  return result.matches;
}

/**
 * Whether the conditions select the request; rejects with the request's error when one cannot be
 * evaluated. Synchronous without conditions, so that an ordinary write still commits in one turn.
 */
export function matchConditionsSelect(
  w: Webhook,
  a: AdmissionAttributes,
  object: Record<string, unknown> | undefined,
  pacer: CostPacer,
): boolean | Promise<boolean> {
  if (w.matchConditions.length === 0) return true;
  const input = conditionsInput(a, object);
  return pacer.match(compiledConditions(w), input, w.failurePolicy, false).then((r) => selected(r, a));
}
