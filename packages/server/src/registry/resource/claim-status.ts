/**
 * A ResourceClaim's /status write, the parts of kube-apiserver 1.37's ValidateResourceClaimStatusUpdate
 * kept here: `reservedFor` entries name a resource, name and uid, no uid twice, and only on an
 * allocated claim; each device status names a valid driver, pool and device that the allocation
 * holds, with valid conditions. The allocation itself and device network data are not checked.
 * Upstream's declarative checks (duplicates, the allocation requirement) come last.
 */
import { conditionListErrors } from "../../validation/condition-rules.js";
import {
  duplicate,
  FieldErrors,
  forbidden,
  invalid,
  type Json,
  obj,
  required,
  str,
} from "../../validation/field-errors.js";
import { dns1123LabelProblems, dns1123SubdomainProblems } from "../../validation/name-formats.js";

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);

function reservedForErrors(status: Json, out: FieldErrors): void {
  const seen = new Set<string>();
  const entries = list(status.reservedFor);
  entries.forEach((ref, i) => {
    const at = `status.reservedFor[${i}]`;
    for (const key of ["resource", "name", "uid"])
      if (str(ref[key]) === "") out.add(required(`${at}.${key}`));
    const uid = str(ref.uid);
    if (seen.has(uid)) {
      // Shown as the reference's JSON, an empty API group left out.
      const { apiGroup, resource, name } = ref;
      out.covered(duplicate(at, { ...(apiGroup ? { apiGroup } : {}), resource, name, uid }));
    }
    seen.add(uid);
  });
  if (entries.length > 0 && status.allocation === undefined)
    out.covered(forbidden("status.reservedFor", "may not be specified when `allocated` is not set"));
}

const deviceKey = (d: Json) => JSON.stringify([str(d.driver), str(d.pool), str(d.device), str(d.shareID)]);

function deviceNameErrors(d: Json, at: string, out: FieldErrors): void {
  const driver = str(d.driver);
  if (driver === "") out.add(required(`${at}.driver`));
  else out.add(...dns1123SubdomainProblems(driver).map((m) => invalid(`${at}.driver`, driver, m)));
  const pool = str(d.pool);
  if (pool === "") out.add(required(`${at}.pool`));
  else
    for (const part of pool.split("/"))
      out.add(...dns1123SubdomainProblems(part).map((m) => invalid(`${at}.pool`, pool, m)));
  const device = str(d.device);
  out.add(...dns1123LabelProblems(device).map((m) => invalid(`${at}.device`, device, m)));
}

function deviceErrors(status: Json, out: FieldErrors): void {
  const allocated = new Set(list(obj(obj(status.allocation).devices).results).map(deviceKey));
  list(status.devices).forEach((d, i) => {
    const at = `status.devices[${i}]`;
    deviceNameErrors(d, at, out);
    if (!allocated.has(deviceKey(d))) {
      const shown = {
        Driver: str(d.driver),
        Pool: str(d.pool),
        Device: str(d.device),
        ShareID: str(d.shareID),
      };
      out.add(invalid(at, shown, "must be an allocated device in the claim"));
    }
    conditionListErrors(list(d.conditions), `${at}.conditions`, out);
  });
}

export function claimStatusErrors(claim: Json): FieldErrors {
  const status = obj(claim.status);
  const out = new FieldErrors();
  deviceErrors(status, out);
  reservedForErrors(status, out);
  return out;
}
