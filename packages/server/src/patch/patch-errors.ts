/**
 * The errors kube-apiserver answers for strategic merge patches it cannot apply: malformed
 * directives are a 400 (`$retainKeys`) or a 500 without a reason (everything apimachinery's
 * strategicpatch package returns as a plain error), with its messages.
 */
import { errors, StatusError } from "../api/status.js";
import { goString, goTypeName, goValue } from "./go-format.js";

type Obj = Record<string, unknown>;

/** A 500 Status with only a message, as the apiserver writes an unclassified patch error. */
export function patchFailure(message: string): StatusError {
  return new StatusError({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    code: 500,
  });
}

export const smpErrors = {
  notAnObject(patch: unknown): StatusError {
    const kind = Array.isArray(patch)
      ? "array"
      : typeof patch === "number"
        ? "number"
        : typeof patch === "boolean"
          ? "bool"
          : "string";
    return errors.badRequest(`json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  },
  badPatchType(directive: unknown, m: Obj): StatusError {
    return patchFailure(`unknown patch type: ${goString(directive)} in map: ${goValue(m)}`);
  },
  noMergeKey(m: Obj, key: string): StatusError {
    return patchFailure(`map: ${goValue(m)} does not contain declared merge key: ${key}`);
  },
  mergeDirectiveInList(): StatusError {
    return patchFailure("merging lists cannot yet be specified in the patch");
  },
  mixedList(original: unknown[], patch: unknown[]): StatusError {
    return patchFailure(`list element types are not identical: [${goValue(original)} ${goValue(patch)}]`);
  },
  badRetainKeys(): StatusError {
    return errors.badRequest("invalid patch format of retainKeys");
  },
  notAList(v: unknown): StatusError {
    return patchFailure(`expected a []interface {}, but received a ${goTypeName(v)}`);
  },
  orderMismatch(patchList: unknown[], order: unknown[]): StatusError {
    return patchFailure(
      `The order in patch list:\n${goValue(patchList)}\n doesn't match $setElementOrder list:\n${goValue(order)}\n`,
    );
  },
};
