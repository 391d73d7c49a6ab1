/**
 * The reference server's stand-in for kube-controller-manager's `serviceaccount` controller
 * (switched off with `controllers: false`): every active namespace has a ServiceAccount `default`,
 * created again when it is deleted. Pods need it: ServiceAccount admission refuses a pod whose
 * account does not exist (admission/plugins/service-account.ts). With nothing configured that could
 * change the write (stored-templates.ts, admissionIsPlain), the account is committed in the form the
 * write path would store, without the write path: a start creates one per namespace before it answers.
 */
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { createObject } from "../endpoints/handlers/write.js";
import { PerNamespaceController } from "./per-namespace.js";
import { admissionIsPlain, commitSystemObject, defaultServiceAccount } from "./stored-templates.js";

export function serviceAccountController(ctx: HandlerContext): PerNamespaceController {
  return new PerNamespaceController(ctx, {
    bucket: "/serviceaccounts",
    name: "default",
    ensure(namespace, current) {
      const accounts = ctx.resources.find("", "v1", "serviceaccounts");
      if (current || !accounts) return undefined;
      if (admissionIsPlain(ctx)) {
        commitSystemObject(ctx, defaultServiceAccount(namespace));
        return undefined;
      }
      return createObject(ctx, accounts, {
        namespace,
        query: new URLSearchParams(),
        body: { metadata: { name: "default" } },
        userAgent: "kube-controller-manager",
      });
    },
  });
}
