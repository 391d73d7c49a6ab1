/**
 * CSIDrivers: attach required, persistent volumes, ReadWriteOnceWithFSType; DELETE answers with the
 * object. Validated as upstream: FS group policy, token requests, lifecycle modes, update period;
 * attachRequired and the lifecycle modes are immutable.
 */
import type { FieldError } from "../../api/status.js";
import {
  arr,
  duplicate,
  FieldErrors,
  immutable,
  invalid,
  isSet,
  type Json,
  notSupported,
  obj,
  sameValue,
  str,
  strs,
} from "../../validation/field-errors.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

const FS_GROUP_POLICIES = ["File", "None", "ReadWriteOnceWithFSType"];
const LIFECYCLE_MODES = ["Persistent", "Ephemeral"];
const MIN_TOKEN_SECONDS = 600;

function tokenRequestErrors(requests: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  requests.forEach((r, i) => {
    const req = obj(r);
    const field = `spec.tokenRequests[${i}]`;
    const audience = str(req.audience);
    if (audiences.has(audience)) {
      errs.push(duplicate(`${field}.audience`, audience));
      return;
    }
    audiences.add(audience);
    if (typeof req.expirationSeconds !== "number") return;
    const secs = req.expirationSeconds;
    if (secs < MIN_TOKEN_SECONDS)
      errs.push(
        invalid(`${field}.expirationSeconds`, secs, "may not specify a duration less than 10 minutes"),
      );
    if (secs > 2 ** 32)
      errs.push(
        invalid(`${field}.expirationSeconds`, secs, "may not specify a duration larger than 2^32 seconds"),
      );
  });
  return errs;
}

function csiDriverErrors(driver: Json, old: Json | undefined): FieldError[] {
  const spec = obj(driver.spec);
  const out = new FieldErrors();
  if (isSet(spec.fsGroupPolicy) && !FS_GROUP_POLICIES.includes(str(spec.fsGroupPolicy)))
    out.add(notSupported("spec.fsGroupPolicy", str(spec.fsGroupPolicy), FS_GROUP_POLICIES));
  out.add(...tokenRequestErrors(arr(spec.tokenRequests)));
  for (const mode of strs(spec.volumeLifecycleModes))
    if (!LIFECYCLE_MODES.includes(mode))
      out.add(notSupported("spec.volumeLifecycleModes", mode, LIFECYCLE_MODES));
  const period = spec.nodeAllocatableUpdatePeriodSeconds;
  if (typeof period === "number" && period < 10)
    out.add(
      invalid(
        "spec.nodeAllocatableUpdatePeriodSeconds",
        period,
        "must be greater than or equal to 10 seconds",
      ),
    );
  if (isSet(spec.serviceAccountTokenInSecrets) && arr(spec.tokenRequests).length === 0)
    out.add(
      invalid(
        "spec.serviceAccountTokenInSecrets",
        spec.serviceAccountTokenInSecrets,
        "serviceAccountTokenInSecrets is set but no tokenRequests are specified",
      ),
    );
  if (old) {
    const before = obj(old.spec);
    // Upstream names the field "attachedRequired" in this message.
    if (!sameValue(spec.attachRequired, before.attachRequired))
      out.add(immutable("spec.attachedRequired", spec.attachRequired ?? null));
    if (!sameValue(spec.volumeLifecycleModes, before.volumeLifecycleModes))
      out.covered(immutable("spec.volumeLifecycleModes", null));
  }
  return out.list();
}

export const csidrivers: KindStrategy = {
  group: "storage.k8s.io",
  resource: "csidrivers",
  returnsDeletedObject: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "attachRequired", true);
    set(spec, "podInfoOnMount", false);
    set(spec, "volumeLifecycleModes", ["Persistent"]);
    set(spec, "storageCapacity", false);
    set(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType");
    set(spec, "requiresRepublish", false);
    set(spec, "seLinuxMount", false);
  },
  validate: csiDriverErrors,
};
