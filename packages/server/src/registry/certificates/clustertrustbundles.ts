/** ClusterTrustBundles: selectable by spec.signerName. */
import type { KindStrategy } from "../strategy.js";

export const clustertrustbundles: KindStrategy = {
  group: "certificates.k8s.io",
  resource: "clustertrustbundles",
  fieldLabels: ["spec.signerName"],
};
