/**
 * matchConditions at request time: every CEL condition must be true for the webhook to be called
 * (one false wins over errors); an evaluation error is the webhook's failure under failurePolicy
 * Fail (a 403 naming the expression, as upstream) and skips it under Ignore. Built on the server's
 * CEL evaluator (cel/); compiled once per expression (registry/admissionregistration/match-conditions.ts).
 */
import { failure, qualifiedName, type StatusError } from "../../api/status.js";
import { dynToCel } from "../../cel/schema-types.js";
import { compileMatchCondition } from "../../registry/admissionregistration/match-conditions.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { Webhook } from "./configurations.js";
import { reviewRequest } from "./review.js";

/** cel-go's wording of the evaluator's runtime errors it has an equivalent for. */
function celGoError(message: string): string {
  const first = message.split("\n")[0] ?? "";
  const key = /^No such key: (.*)$/i.exec(first);
  return key ? `no such key: ${key[1]}` : first;
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

/** Whether the conditions select the request; throws the request's error when one cannot be evaluated. */
export function matchConditionsSelect(
  w: Webhook,
  a: AdmissionAttributes,
  object: Record<string, unknown> | undefined,
): boolean {
  if (w.matchConditions.length === 0) return true;
  const vars = {
    object: dynToCel(object ?? null),
    oldObject: dynToCel(a.oldObject ?? null),
    request: dynToCel(reviewRequest(a, undefined).body.request),
    authorizer: null,
  };
  const errors: string[] = [];
  for (const c of w.matchConditions) {
    const compiled = compileMatchCondition(c.expression);
    if (!compiled.ok) {
      errors.push(`compilation failed: ${compiled.error}`);
      continue;
    }
    try {
      if (compiled.program.run(vars) === false) return false;
    } catch (e) {
      errors.push(`expression '${c.expression}' resulted in error: ${celGoError((e as Error).message)}`);
    }
  }
  if (errors.length === 0) return true;
  if (w.failurePolicy === "Ignore") return false;
  throw evaluationError(a, errors[0] as string);
}
