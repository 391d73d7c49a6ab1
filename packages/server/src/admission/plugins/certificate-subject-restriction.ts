/**
 * CertificateSubjectRestriction (upstream plugin/pkg/admission/certificates/subjectrestriction): a
 * new CertificateSigningRequest for the `kubernetes.io/kube-apiserver-client` signer may not ask
 * for the `system:masters` group (an organization of its subject), which would bypass
 * authorization; such a request is refused 403.
 */
import { requestOrganizations } from "../../registry/certificates/csr-request.js";
import { type AdmissionPlugin, forbidden, handlesOnly } from "../plugin.js";
import { objectOf, recordAt } from "./target.js";

const CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client";
const MASTERS = "system:masters";

export const certificateSubjectRestriction: AdmissionPlugin = {
  name: "CertificateSubjectRestriction",
  handles: handlesOnly("CREATE"),
  validate(a) {
    const csr = objectOf(a, "certificates.k8s.io", "certificatesigningrequests");
    if (!csr) return;
    const spec = recordAt(csr, "spec");
    if (spec.signerName !== CLIENT_SIGNER || typeof spec.request !== "string") return;
    if (requestOrganizations(Buffer.from(spec.request, "base64")).includes(MASTERS))
      throw forbidden(a, `use of ${CLIENT_SIGNER} signer with ${MASTERS} group is not allowed`);
  },
};
