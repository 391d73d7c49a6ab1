/**
 * The errors kube-apiserver answers for strategic merge patches it cannot apply: malformed
 * directives are a 400 (`$retainKeys`) or a 500 without a reason (everything apimachinery's
 * strategicpatch package returns as a plain error), with its messages.
 */
import { errors, type StatusError } from "../api/status.js";
import { goString, goTypeName, goValue } from "./go-format.js";

type Obj = Record<string, unknown>;

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
    return errors.unclassified(`unknown patch type: ${goString(directive)} in map: ${goValue(m)}`);
  },
  noMergeKey(m: Obj, key: string): StatusError {
    return errors.unclassified(`map: ${goValue(m)} does not contain declared merge key: ${key}`);
  },
  mergeDirectiveInList(): StatusError {
    return errors.unclassified("merging lists cannot yet be specified in the patch");
  },
  mixedList(original: unknown[], patch: unknown[]): StatusError {
    return errors.unclassified(
      `list element types are not identical: [${goValue(original)} ${goValue(patch)}]`,
    );
  },
  badRetainKeys(): StatusError {
    return errors.badRequest("invalid patch format of retainKeys");
  },
  notAList(v: unknown): StatusError {
    return errors.unclassified(`expected a []interface {}, but received a ${goTypeName(v)}`);
  },
  orderMismatch(patchList: unknown[], order: unknown[]): StatusError {
    return errors.unclassified(
      `The order in patch list:\n${goValue(patchList)}\n doesn't match $setElementOrder list:\n${goValue(order)}\n`,
    );
  },
};
