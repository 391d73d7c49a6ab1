/**
 * VolumeAttachments: DELETE answers with the object. The attacher is a CSI driver name, the source
 * exactly one of a persistent volume name and an inline volume spec, the node a node name; the spec
 * never changes. The status's metadata and error messages are bounded.
 */
import type { FieldError } from "../../api/status.js";
import {
  FieldErrors,
  forbidden,
  immutable,
  invalid,
  isSet,
  type Json,
  obj,
  required,
  sameValue,
  str,
  tooLong,
} from "../../validation/field-errors.js";
import { dns1123SubdomainProblems } from "../../validation/name-formats.js";
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";
import { csiDriverNameErrors } from "./storage-rules.js";

const EXACTLY_ONE = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";

function sourceErrors(source: Json, out: FieldErrors): void {
  const pv = source.persistentVolumeName;
  const inline = source.inlineVolumeSpec;
  if (!isSet(pv) && !isSet(inline)) out.add(required("spec.source", EXACTLY_ONE));
  else if (isSet(pv) && isSet(inline)) out.add(forbidden("spec.source", EXACTLY_ONE));
  else if (isSet(pv) && str(pv) === "")
    out.add(required("spec.source.persistentVolumeName", "must specify non empty persistentVolumeName"));
}

function statusErrors(status: Json, out: FieldErrors): void {
  let size = 0;
  for (const [k, v] of Object.entries(obj(status.attachmentMetadata))) size += k.length + str(v).length;
  if (size > 256 * 1024) out.add(tooLong("status.attachmentMetadata", 256 * 1024));
  for (const key of ["attachError", "detachError"]) {
    if (!isSet(status[key])) continue;
    const e = obj(status[key]);
    if (str(e.message).length > 1024) out.add(tooLong(`status.${key}.message`, 1024));
    if (typeof e.errorCode === "number" && e.errorCode < 0)
      out.add(invalid(`status.${key}.errorCode`, e.errorCode, "must be between 0 and 2147483647, inclusive"));
  }
}

function volumeAttachmentErrors(va: Json, old: Json | undefined): FieldError[] {
  const spec = obj(va.spec);
  const out = new FieldErrors();
  csiDriverNameErrors(str(spec.attacher), "spec.attacher", out, true);
  sourceErrors(obj(spec.source), out);
  const node = str(spec.nodeName);
  out.add(...dns1123SubdomainProblems(node).map((m) => invalid("spec.nodeName", node, m)));
  statusErrors(obj(va.status), out);
  const pv = obj(spec.source).persistentVolumeName;
  if (typeof pv === "string")
    out.add(...dns1123SubdomainProblems(pv).map((m) => invalid("spec.source.persistentVolumeName", pv, m)));
  if (old && !sameValue(spec, old.spec)) out.covered(immutable("spec", null));
  return out.list();
}

export const volumeattachments: KindStrategy = {
  group: "storage.k8s.io",
  resource: "volumeattachments",
  statusResetsMetadata: RESET_FOR_STATUS,
  returnsDeletedObject: true,
  validate: volumeAttachmentErrors,
};
