/**
 * A container's volume mounts and volume devices: each names a volume of the pod at a unique path,
 * a name or path is used as a mount or as a device but not both, devices need a claim-backed
 * volume, sub-paths are relative without `..` (and not both kinds), mount propagation and
 * recursive read-only settings. Several errors carry upstream's un-indexed paths.
 */
import {
  type FieldError,
  forbidden,
  invalid,
  isObject,
  type Json,
  listAt,
  notFound,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { localDescendingErrors, noBacksteps } from "./volume-paths.js";

type Volumes = ReadonlyMap<string, Json>;

const PROPAGATIONS = ["Bidirectional", "HostToContainer", "None"];
const RECURSIVE_READ_ONLY = ["Disabled", "Enabled", "IfPossible"];

/** name → path of a list of mounts or devices (a later entry wins, as in upstream's map). */
const pathsByName = (list: unknown, pathKey: string): Map<string, string> =>
  new Map(listAt(list).map((x) => [stringAt(objectAt(x).name), stringAt(objectAt(x)[pathKey])]));

/** The sub-path, propagation and recursive read-only rules of one mount. */
function mountOptionErrors(m: Json, at: string, index: string, privileged: boolean): FieldError[] {
  const out: FieldError[] = [];
  const subPath = stringAt(m.subPath);
  const expr = stringAt(m.subPathExpr);
  if (subPath !== "") out.push(...localDescendingErrors(subPath, `${at}.subPath`));
  if (expr !== "") {
    if (subPath !== "")
      out.push(invalid(`${index}.subPathExpr`, expr, "subPathExpr and subPath are mutually exclusive"));
    out.push(...localDescendingErrors(expr, `${at}.subPathExpr`));
  }
  const propagation = m.mountPropagation;
  if (typeof propagation === "string") {
    if (!PROPAGATIONS.includes(propagation))
      out.push(notSupported(`${at}.mountPropagation`, propagation, PROPAGATIONS));
    if (propagation === "Bidirectional" && !privileged)
      out.push(
        forbidden(
          `${at}.mountPropagation`,
          "Bidirectional mount propagation is available only to privileged containers",
        ),
      );
  }
  const rro = m.recursiveReadOnly;
  if (rro === "Enabled" || rro === "IfPossible") {
    if (m.readOnly !== true)
      out.push(forbidden(`${at}.recursiveReadOnly`, "may only be specified when readOnly is true"));
    if (typeof propagation === "string" && propagation !== "None")
      out.push(
        forbidden(
          `${at}.recursiveReadOnly`,
          "may only be specified when mountPropagation is None or not specified",
        ),
      );
  } else if (typeof rro === "string" && rro !== "Disabled")
    out.push(notSupported(`${at}.recursiveReadOnly`, rro, RECURSIVE_READ_ONLY));
  return out;
}

/** ValidateVolumeMounts for container `c`. */
export function volumeMountErrors(c: Json, volumes: Volumes, at: string): FieldError[] {
  const out: FieldError[] = [];
  const paths = new Set<string>();
  const devices = pathsByName(c.volumeDevices, "devicePath");
  const devicePaths = new Set(devices.values());
  const privileged = objectAt(c.securityContext).privileged === true;
  listAt(c.volumeMounts).forEach((raw, i) => {
    const m = objectAt(raw);
    const path = `${at}[${i}]`;
    const name = stringAt(m.name);
    if (name === "") out.push(required(`${path}.name`));
    if (!volumes.has(name)) out.push(notFound(`${path}.name`, name));
    const mountPath = stringAt(m.mountPath);
    if (mountPath === "") out.push(required(`${path}.mountPath`));
    if (paths.has(mountPath)) out.push(invalid(`${path}.mountPath`, mountPath, "must be unique"));
    paths.add(mountPath);
    if (devices.has(name)) out.push(invalid(`${path}.name`, name, "must not already exist in volumeDevices"));
    if (devicePaths.has(mountPath))
      out.push(invalid(`${path}.mountPath`, mountPath, "must not already exist as a path in volumeDevices"));
    out.push(...mountOptionErrors(m, at, path, privileged));
  });
  return out;
}

/** ValidateVolumeDevices for container `c`: block devices of claim-backed volumes. */
export function volumeDeviceErrors(c: Json, volumes: Volumes, at: string): FieldError[] {
  const out: FieldError[] = [];
  const mounts = pathsByName(c.volumeMounts, "mountPath");
  const mountPaths = new Set(mounts.values());
  const names = new Set<string>();
  const paths = new Set<string>();
  listAt(c.volumeDevices).forEach((raw, i) => {
    const d = objectAt(raw);
    const at_ = `${at}[${i}]`;
    const name = stringAt(d.name);
    const path = stringAt(d.devicePath);
    const source = volumes.get(name);
    if (name === "") out.push(required(`${at_}.name`));
    if (names.has(name)) out.push(invalid(`${at_}.name`, name, "must be unique"));
    if (source && !isObject(source.persistentVolumeClaim) && !isObject(source.ephemeral))
      out.push(
        invalid(
          `${at_}.name`,
          name,
          "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
        ),
      );
    if (!source) out.push(notFound(`${at_}.name`, name));
    if (path === "") out.push(required(`${at_}.devicePath`));
    if (paths.has(path)) out.push(invalid(`${at_}.devicePath`, path, "must be unique"));
    if (path !== "" && noBacksteps(path, "").length > 0)
      out.push(invalid(`${at_}.devicePath`, path, "can not contain backsteps ('..')"));
    else paths.add(path);
    if (mounts.has(name)) out.push(invalid(`${at_}.name`, name, "must not already exist in volumeMounts"));
    if (mountPaths.has(path))
      out.push(invalid(`${at_}.devicePath`, path, "must not already exist as a path in volumeMounts"));
    if (name !== "") names.add(name);
  });
  return out;
}
