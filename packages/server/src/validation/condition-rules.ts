/**
 * metav1.Condition lists as apimachinery validates them: unique types that are qualified names, a
 * known status, a non-negative observed generation, a transition time, a reason in the condition
 * reason format and bounded lengths. Kinds that check conditions declaratively report some of these
 * last; PodDisruptionBudgets (the only user so far) report them in this order.
 */
import {
  duplicate,
  type FieldErrors,
  invalid,
  notSupported,
  obj,
  required,
  str,
  tooLong,
} from "./field-errors.js";
import { regexError } from "./name-formats.js";
import { qualifiedNameProblems } from "./object-meta.js";

const STATUSES = ["False", "True", "Unknown"];
const REASON = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?";
const REASON_RE = new RegExp(`^${REASON}$`);
const REASON_MSG =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

export function conditionListErrors(conditions: unknown[], field: string, out: FieldErrors): void {
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const cond = obj(c);
    const at = `${field}[${i}]`;
    const type = str(cond.type);
    if (seen.has(type)) out.add(duplicate(at, type));
    seen.add(type);
    if (type === "") out.add(required(`${at}.type`, "is required"));
    else out.add(...qualifiedNameProblems(type).map((m) => invalid(`${at}.type`, type, m)));
    const status = str(cond.status);
    if (status === "") out.add(required(`${at}.status`));
    else if (!STATUSES.includes(status)) out.add(notSupported(`${at}.status`, status, STATUSES));
    if (typeof cond.observedGeneration === "number" && cond.observedGeneration < 0)
      out.add(
        invalid(`${at}.observedGeneration`, cond.observedGeneration, "must be greater than or equal to zero"),
      );
    if (str(cond.lastTransitionTime) === "") out.add(required(`${at}.lastTransitionTime`));
    const reason = str(cond.reason);
    if (reason === "") out.add(required(`${at}.reason`));
    else {
      if (!REASON_RE.test(reason))
        out.add(
          invalid(
            `${at}.reason`,
            reason,
            regexError(
              REASON_MSG,
              REASON,
              "my_name",
              "MY_NAME",
              "MyName",
              "ReasonA,ReasonB",
              "ReasonA:ReasonB",
            ),
          ),
        );
      if (Buffer.byteLength(reason) > 1024) out.add(tooLong(`${at}.reason`, 1024));
    }
    if (Buffer.byteLength(str(cond.message)) > 32 * 1024) out.add(tooLong(`${at}.message`, 32 * 1024));
  });
}
