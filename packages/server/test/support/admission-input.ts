/** An admission CEL input for unit tests: a ConfigMap `cm` in namespace `ns` (labelled env=prod), by an admin. */
import type { AdmissionInput } from "../../src/cel/admission/index.js";

export const configMapInput = (
  object: unknown,
  operation: "CREATE" | "UPDATE" = "CREATE",
): AdmissionInput => ({
  object,
  oldObject: null,
  request: {
    kind: { group: "", version: "v1", kind: "ConfigMap" },
    resource: { group: "", version: "v1", resource: "configmaps" },
    subResource: "",
    name: "cm",
    namespace: "ns",
    operation,
    userInfo: { username: "admin", groups: ["system:masters"] },
    dryRun: false,
  },
  namespace: { metadata: { name: "ns", labels: { env: "prod" } } },
  params: null,
  authorized: true,
});
