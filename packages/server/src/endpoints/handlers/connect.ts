/**
 * Admission of a CONNECT request (pods/exec, attach, portforward, proxy): the chain's mutating and
 * validating phases on the request's options object (PodProxyOptions, PodExecOptions, …), before
 * anything is connected, as upstream's connect handler admits them; a refusal is the request's
 * answer (docs/divergences.md WH9). Synchronous unless a plugin is async (a webhook).
 */
import type { AdmissionAttributes } from "../../admission/attributes.js";
import type { UserInfo } from "../../http/auth.js";
import { mutatingAdmission, validatingAdmission } from "./admission-stage.js";
import type { HandlerContext } from "./context.js";

export interface ConnectRequest {
  /** A core resource: `pods` or `services`. */
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** The options object, e.g. `{ kind: "PodProxyOptions", apiVersion: "v1", path }`. */
  readonly options: Record<string, unknown> & { readonly kind: string };
  readonly user: UserInfo | undefined;
}

export function admitConnect(ctx: HandlerContext, c: ConnectRequest): void | Promise<void> {
  const a: AdmissionAttributes = {
    operation: "CONNECT",
    kind: { group: "", version: "v1", kind: c.options.kind },
    resource: { group: "", version: "v1", resource: c.resource },
    subresource: c.subresource,
    namespace: c.namespace,
    name: c.name,
    object: c.options,
    oldObject: undefined,
    userInfo: c.user,
    dryRun: false,
  };
  const mutated = mutatingAdmission(ctx, a);
  if (mutated) return mutated.then(() => validatingAdmission(ctx, a));
  return validatingAdmission(ctx, a);
}
