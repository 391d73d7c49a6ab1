/**
 * ClusterTrustBundles: selectable by spec.signerName. Validated as upstream: a signer name when one
 * is given (immutable), and a trust bundle of at most 1 MiB of distinct CA certificates in PEM
 * CERTIFICATE blocks without headers (not re-parsed when an update leaves it unchanged).
 */
import type { FieldError } from "../../api/status.js";
import {
  FieldErrors,
  immutable,
  invalid,
  type Json,
  obj,
  str,
  tooLong,
} from "../../validation/field-errors.js";
import { pemBlocks } from "../../validation/pem-blocks.js";
import { signerNameErrors } from "../../validation/signer-names.js";
import type { KindStrategy } from "../strategy.js";
import { parses } from "./certificate-pem.js";

const MAX_BUNDLE = 1024 * 1024;
const FIELD = "spec.trustBundle";
const omitted = (detail: string) => invalid(FIELD, "<value omitted>", detail);

function bundleErrors(bundle: string): FieldError[] {
  if (bundle.length > MAX_BUNDLE) return [tooLong(FIELD, MAX_BUNDLE)];
  const errs: FieldError[] = [];
  const seen = new Map<string, number[]>();
  pemBlocks(bundle).forEach((b, i) => {
    if (b.type !== "CERTIFICATE") errs.push(omitted(`entry ${i} has bad block type: ${b.type}`));
    else if (b.hasHeaders) errs.push(omitted(`entry ${i} has PEM block headers`));
    else {
      const cert = parses(b.der);
      if (!cert) errs.push(omitted(`entry ${i} does not parse as X.509`));
      else if (!cert.ca) errs.push(omitted(`entry ${i} does not have the CA bit set`));
      else {
        const key = b.der.toString("hex");
        seen.set(key, [...(seen.get(key) ?? []), i]);
      }
    }
  });
  if (errs.length > 0) return errs;
  if (seen.size === 0) return [omitted("at least one trust anchor must be provided")];
  for (const indices of seen.values())
    if (indices.length > 1) errs.push(omitted(`duplicate trust anchor (indices [${indices.join(" ")}])`));
  return errs;
}

function trustBundleErrors(ctb: Json, old: Json | undefined): FieldError[] {
  const spec = obj(ctb.spec);
  const out = new FieldErrors();
  const signer = str(spec.signerName);
  if (signer !== "") out.add(...signerNameErrors("spec.signerName", signer));
  const bundle = str(spec.trustBundle);
  if (!old || bundle !== str(obj(old.spec).trustBundle)) out.add(...bundleErrors(bundle));
  if (old && signer !== str(obj(old.spec).signerName)) out.covered(immutable("spec.signerName", signer));
  return out.list();
}

export const clustertrustbundles: KindStrategy = {
  group: "certificates.k8s.io",
  resource: "clustertrustbundles",
  fieldLabels: ["spec.signerName"],
  validate: trustBundleErrors,
};
