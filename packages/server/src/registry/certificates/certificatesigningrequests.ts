/**
 * CertificateSigningRequests: the request names who asked for it (set at create from the
 * requester), and its spec is what the requester asked for: updates keep the stored one. Validated
 * as upstream: a signed PKCS#10 request, known and unique usages, a signer name (not the legacy
 * one), at least ten minutes of validity, well-formed conditions and certificate.
 */
import type { UserInfo } from "../../http/auth.js";
import type { KindStrategy } from "../strategy.js";
import { csrErrors } from "./csr-rules.js";

/** The requester's name, uid, groups and extra replace whatever the client sent; no status yet. */
function recordRequester(obj: Record<string, unknown>, user: UserInfo | undefined): void {
  const spec = { ...(obj.spec as Record<string, unknown> | undefined) };
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (user?.name) spec.username = user.name;
  if (user?.uid) spec.uid = user.uid;
  if (user && user.groups.length > 0) spec.groups = [...user.groups];
  if (user?.extra && Object.keys(user.extra).length > 0) spec.extra = user.extra;
  obj.spec = spec;
  delete obj.status;
}

export const certificatesigningrequests: KindStrategy = {
  group: "certificates.k8s.io",
  resource: "certificatesigningrequests",
  fieldLabels: ["spec.signerName"],
  prepareCreate(obj, _ctx, user) {
    recordRequester(obj, user);
  },
  prepareUpdate(next, old, subresource) {
    if (subresource === undefined) next.spec = old.spec;
  },
  validate: csrErrors,
};
