/**
 * Server-side apply through the client: @kubesdk/apply's conflict policies (fail, force, yield)
 * over the client's request building and I/O, shared by ResourceClient and its subresources.
 */
import {
  type ApplyConfiguration,
  type ApplyResult,
  applyWithPolicy,
  type ObjectWithTypeMeta,
  type ApplyPolicyOptions as PolicyOptions,
} from "@kubesdk/apply";
import { ClientError } from "./errors.js";
import { type ClientContext, type RequestControl, send } from "./io/context.js";
import type { FieldValidation, NamespaceOption } from "./request/options.js";
import type { Patch } from "./request/patch.js";
import type { RequestBuilder } from "./request/request-builder.js";

/**
 * Options of `apply`: the field manager, what to do about fields other managers own (`conflicts`:
 * "fail", the default, "force" to take them, or "yield" to leave them), and the usual write options.
 */
export interface ApplyOptions extends Omit<PolicyOptions, "signal">, NamespaceOption, RequestControl {
  readonly fieldValidation?: FieldValidation;
}

/** Applies `config` (named by its metadata.name) with the options' conflict policy. */
export async function applyObject<T extends ObjectWithTypeMeta>(
  context: ClientContext,
  requests: RequestBuilder,
  config: ApplyConfiguration<T>,
  options: ApplyOptions,
): Promise<ApplyResult<T>> {
  const metadata = (config as ObjectWithTypeMeta | undefined)?.metadata;
  const name = metadata?.name;
  if (typeof name !== "string" || name === "") {
    throw new ClientError("MISSING_NAME", "the apply configuration has no metadata.name");
  }
  // An explicit namespace always goes to the request builder (which refuses it for cluster-scoped
  // resources); the configuration's own namespace only matters for namespaced ones.
  const namespace =
    options.namespace ?? (requests.target.namespaced ? (metadata?.namespace ?? undefined) : undefined);
  const control: RequestControl = {
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
  return await applyWithPolicy<T>(
    async (body, o) => {
      const patch = { type: "apply", object: body } as Patch<unknown>;
      const request = requests.patch(name, patch, {
        ...(namespace !== undefined ? { namespace } : {}),
        ...(options.fieldValidation !== undefined ? { fieldValidation: options.fieldValidation } : {}),
        ...(o.subresource !== undefined ? { subresource: o.subresource } : {}),
        fieldManager: o.fieldManager,
        force: o.force,
        dryRun: o.dryRun,
      });
      return (await send(context, request, control)) as T;
    },
    config,
    {
      fieldManager: options.fieldManager,
      conflicts: options.conflicts ?? "fail",
      ...(options.dryRun !== undefined ? { dryRun: options.dryRun } : {}),
      ...(options.subresource !== undefined ? { subresource: options.subresource } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    },
  );
}
