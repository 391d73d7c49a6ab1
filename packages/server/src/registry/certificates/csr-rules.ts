/**
 * CertificateSigningRequest validation as kube-apiserver applies it (certificates/v1): the request,
 * usages, signer name, expiration, conditions and certificate; on updates, conditions that may not
 * be removed or changed and a certificate that may not be replaced. Allowances upstream keeps for
 * objects stored by older releases (legacy signer, duplicate usages) follow the stored object.
 */
import type { FieldError } from "../../api/status.js";
import {
  arr,
  duplicate,
  FieldErrors,
  forbidden,
  invalid,
  type Json,
  notSupported,
  obj,
  required,
  str,
  strs,
} from "../../validation/field-errors.js";
import { signerNameErrors } from "../../validation/signer-names.js";
import { certificateProblem } from "./certificate-pem.js";
import { requestProblem } from "./csr-request.js";

const LEGACY_SIGNER = "kubernetes.io/legacy-unknown";
const USAGES = [
  "any",
  "cert sign",
  "client auth",
  "code signing",
  "content commitment",
  "crl sign",
  "data encipherment",
  "decipher only",
  "digital signature",
  "email protection",
  "encipher only",
  "ipsec end system",
  "ipsec tunnel",
  "ipsec user",
  "key agreement",
  "key encipherment",
  "microsoft sgc",
  "netscape sgc",
  "ocsp signing",
  "s/mime",
  "server auth",
  "signing",
  "timestamping",
];
const TRUE_ONLY = new Set(["Approved", "Denied", "Failed"]);
const ALL_STATUS = ["False", "True", "Unknown"];

function usageErrors(usages: string[], old: Json | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (usages.length === 0) errs.push(required("spec.usages"));
  const oldUsages = old ? strs(obj(old.spec).usages) : [];
  if (!oldUsages.some((u) => !USAGES.includes(u)))
    usages.forEach((u, i) => {
      if (!USAGES.includes(u)) errs.push(notSupported(`spec.usages[${i}]`, u, USAGES));
    });
  if (new Set(oldUsages).size === oldUsages.length)
    usages.forEach((u, i) => {
      if (usages.indexOf(u) !== i) errs.push(duplicate(`spec.usages[${i}]`, u));
    });
  return errs;
}

function conditionErrors(conditions: Json[], out: FieldErrors): void {
  const field = "status.conditions";
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions.forEach((c, i) => {
    const type = str(c.type);
    const status = str(c.status);
    if (type === "") out.add(required(`${field}[${i}].type`));
    const allowed = TRUE_ONLY.has(type) ? ["True"] : ALL_STATUS;
    if (status === "") out.add(required(`${field}[${i}].status`));
    else if (!allowed.includes(status)) out.add(notSupported(`${field}[${i}].status`, status, allowed));
    if ((type === "Approved" && denied) || (type === "Denied" && approved))
      out.covered(invalid(field, type, "Approved and Denied conditions are mutually exclusive"));
    if (type === "Approved") approved = true;
    if (type === "Denied") denied = true;
    if (seen.has(type)) out.add(duplicate(`${field}[${i}].type`, type));
    seen.add(type);
  });
}

const ofType = (conditions: Json[], t: string) => conditions.filter((c) => c.type === t);

function updateErrors(csr: Json, old: Json, subresource: string | undefined): FieldError[] {
  const now = arr(obj(csr.status).conditions).map(obj);
  const before = arr(obj(old.status).conditions).map(obj);
  const errs: FieldError[] = [];
  for (const t of ["Approved", "Denied", "Failed"])
    if (ofType(now, t).length < ofType(before, t).length)
      errs.push(
        forbidden("status.conditions", `updates may not remove a condition of type ${JSON.stringify(t)}`),
      );
  if (subresource !== "approval")
    for (const t of ["Approved", "Denied"]) {
      const [n, b] = [ofType(now, t), ofType(before, t)];
      if (n.length > b.length)
        errs.push(
          forbidden("status.conditions", `updates may not add a condition of type ${JSON.stringify(t)}`),
        );
    }
  const cert = str(obj(csr.status).certificate);
  const oldCert = str(obj(old.status).certificate);
  if (cert !== oldCert) {
    if (subresource !== "status")
      errs.push(forbidden("status.certificate", "updates may not set certificate content"));
    else if (oldCert !== "")
      errs.push(forbidden("status.certificate", "updates may not modify existing certificate content"));
  }
  return errs;
}

export function csrErrors(csr: Json, old: Json | undefined, subresource?: string): FieldError[] {
  const spec = obj(csr.spec);
  const out = new FieldErrors();
  const request = str(spec.request);
  const problem = requestProblem(Buffer.from(request, "base64"));
  // An absent request is Go's nil byte slice, printed as null.
  if (problem)
    out.add(
      invalid("spec.request", spec.request === undefined || spec.request === null ? null : request, problem),
    );
  out.add(...usageErrors(strs(spec.usages), old));
  const signer = str(spec.signerName);
  const oldSigner = old ? str(obj(old.spec).signerName) : "";
  if (signer === LEGACY_SIGNER && oldSigner !== LEGACY_SIGNER)
    out.add(invalid("spec.signerName", signer, "the legacy signerName is not allowed via this API version"));
  else out.add(...signerNameErrors("spec.signerName", signer));
  if (typeof spec.expirationSeconds === "number" && spec.expirationSeconds < 600)
    out.add(
      invalid(
        "spec.expirationSeconds",
        spec.expirationSeconds,
        "may not specify a duration less than 600 seconds (10 minutes)",
      ),
    );
  conditionErrors(arr(obj(csr.status).conditions).map(obj), out);
  const cert = str(obj(csr.status).certificate);
  const oldCert = old ? str(obj(old.status).certificate) : "";
  const certProblem = cert === oldCert && old ? undefined : certificateProblem(Buffer.from(cert, "base64"));
  if (certProblem) out.add(invalid("status.certificate", "<certificate data>", certProblem));
  const list = out.list();
  if (old) list.push(...updateErrors(csr, old, subresource));
  return list;
}
