/**
 * The container statuses of a pod /status write, the parts kube-apiserver 1.37 checks besides state
 * transitions: the `user` a container runs as (Linux ids in range, and none on a Windows pod) and
 * `allocatedResourcesStatus` (each name one of the container's requests or claims, known health
 * values, no resource ID twice in one entry).
 */
import {
  duplicate,
  type FieldError,
  forbidden,
  invalid,
  type Json,
  notSupported,
  obj,
  str,
} from "../../validation/field-errors.js";

const HEALTH = ["Healthy", "Unhealthy", "Unknown"];
const CLAIM_NAME_MSG =
  "must match one of the container's resource claims as 'claim:<claimName>/<requestName>' when container.resources.claims[*].request is set or 'claim:<claimName>' when it is empty";
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);

function idErrors(value: unknown, field: string, max: number): FieldError[] {
  if (typeof value !== "number" || (value >= 0 && value <= max)) return [];
  return [invalid(field, value, `must be between 0 and ${max}, inclusive`)];
}

function userErrors(c: Json, at: string, windows: boolean): FieldError[] {
  const linux = obj(c.user).linux;
  if (linux === undefined || linux === null) return [];
  if (windows) return [forbidden(`${at}.user.linux`, "cannot be set for a windows pod")];
  const l = obj(linux);
  const groups = Array.isArray(l.supplementalGroups) ? l.supplementalGroups : [];
  return [
    ...idErrors(l.uid, `${at}.user.linux.uid`, 4294967295),
    ...idErrors(l.gid, `${at}.user.linux.gid`, 2147483647),
    ...groups.flatMap((g, i) => idErrors(g, `${at}.user.linux.supplementalGroups[${i}]`, 2147483647)),
  ];
}

/** The names a container's allocated resource statuses may have. */
function knownNames(container: Json): { requests: Set<string>; claims: Set<string> } {
  const resources = obj(container.resources);
  const claims = list(resources.claims).map((c) =>
    str(c.request) === "" ? `claim:${str(c.name)}` : `claim:${str(c.name)}/${str(c.request)}`,
  );
  return { requests: new Set(Object.keys(obj(resources.requests))), claims: new Set(claims) };
}

function allocatedStatusErrors(c: Json, at: string, container: Json): FieldError[] {
  const known = knownNames(container);
  const out: FieldError[] = [];
  list(c.allocatedResourcesStatus).forEach((entry, i) => {
    const field = `${at}.allocatedResourcesStatus[${i}]`;
    const name = str(entry.name);
    if (name.startsWith("claim:")) {
      if (!known.claims.has(name)) out.push(invalid(`${field}.name`, name, CLAIM_NAME_MSG));
    } else if (!known.requests.has(name))
      out.push(invalid(`${field}.name`, name, "must match one of the container's resource requests"));
    const ids = new Set<string>();
    list(entry.resources).forEach((r, j) => {
      const health = r.health;
      if (health !== undefined && health !== "" && !HEALTH.includes(str(health)))
        out.push(notSupported(`${field}.resources[${j}].health`, health, HEALTH));
      const id = str(r.resourceID);
      if (ids.has(id)) out.push(duplicate(`${field}.resources[${j}].resourceID`, id));
      ids.add(id);
    });
  });
  return out;
}

/** The `user` and `allocatedResourcesStatus` of each regular and init container status. */
export function containerStatusFieldErrors(status: Json, spec: Json): FieldError[] {
  const windows = str(obj(spec.os).name) === "windows";
  const groups: [string, string][] = [
    ["containerStatuses", "containers"],
    ["initContainerStatuses", "initContainers"],
  ];
  return groups.flatMap(([statuses, containers]) => {
    const byName = new Map(list(spec[containers]).map((c) => [str(c.name), c]));
    return list(status[statuses]).flatMap((c, i) => {
      const at = `status.${statuses}[${i}]`;
      const container = byName.get(str(c.name)) ?? {};
      return [...userErrors(c, at, windows), ...allocatedStatusErrors(c, at, container)];
    });
  });
}
