/**
 * How a policy's denial reaches the client, as upstream builds it: admission's Forbidden for the
 * resource and name (`deployments.apps "web" is forbidden: <message>`; a create without a name
 * shows its generateName, else `Unknown`), with the decision's reason and that reason's code
 * (Forbidden 403, Unauthorized 401, RequestEntityTooLarge 413, anything else 422) and the message
 * repeated as the one cause.
 */
import { failure, qualifiedName, StatusError } from "../../api/status.js";
import type { AdmissionAttributes } from "../attributes.js";

const CODES: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413 };

function requestName(a: AdmissionAttributes): string {
  if (a.name !== "") return a.name;
  const meta = (a.object?.metadata ?? {}) as Record<string, unknown>;
  if (typeof meta.name === "string" && meta.name !== "") return meta.name;
  if (typeof meta.generateName === "string" && meta.generateName !== "") return meta.generateName;
  return "Unknown";
}

/** The Status error of a denial with `message` and `reason` (default Invalid). */
export function policyDenial(a: AdmissionAttributes, message: string, reason = "Invalid"): StatusError {
  const q = { group: a.resource.group, resource: a.resource.resource };
  const name = requestName(a);
  return failure(CODES[reason] ?? 422, reason, `${qualifiedName(q)} "${name}" is forbidden: ${message}`, {
    name,
    ...(q.group ? { group: q.group } : {}),
    kind: q.resource,
    causes: [{ message }],
  });
}

/** The message of a thrown error: a Status's message, an Error's message, else its text. */
export function errorText(e: unknown): string {
  if (e instanceof StatusError) return e.status.message ?? "";
  return e instanceof Error ? e.message : String(e);
}
