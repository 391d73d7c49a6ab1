/**
 * The reference server's stand-in for kube-controller-manager's root CA publisher
 * (`root-ca-cert-publisher`, switched off with `controllers: false`): every active namespace has a
 * ConfigMap `kube-root-ca.crt` whose `ca.crt` is the CA that signed the server's serving
 * certificate, which pods read through their token volume to verify the server. A deleted one is
 * created again; one whose data or description annotation was changed is put back. A new one is
 * committed in the form the write path would store when nothing configured could change that write
 * (stored-templates.ts, admissionIsPlain).
 */
import { ROOT_CA_CONFIGMAP } from "../admission/index.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { createObject, updateObject } from "../endpoints/handlers/write.js";
import type { StoredObject } from "../storage/mvcc.js";
import { PerNamespaceController } from "./per-namespace.js";
import { admissionIsPlain, commitSystemObject, controllerConfigMap } from "./stored-templates.js";

const DESCRIPTION_ANNOTATION = "kubernetes.io/description";
const DESCRIPTION =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints " +
  "such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across " +
  "distributions of Kubernetes clusters.";

type Json = Record<string, unknown>;

function isPublished(cm: StoredObject, caPem: string): boolean {
  const data = (cm.data ?? {}) as Json;
  const annotations = (cm.metadata.annotations ?? {}) as Json;
  const keys = Object.keys(data);
  return (
    keys.length === 1 &&
    data["ca.crt"] === caPem &&
    typeof annotations[DESCRIPTION_ANNOTATION] === "string" &&
    annotations[DESCRIPTION_ANNOTATION] !== ""
  );
}

export function rootCaPublisher(ctx: HandlerContext, caPem: string): PerNamespaceController {
  const write = { query: new URLSearchParams(), userAgent: "kube-controller-manager" };
  return new PerNamespaceController(ctx, {
    bucket: "/configmaps",
    name: ROOT_CA_CONFIGMAP,
    changed: (cm) => !isPublished(cm, caPem),
    ensure(namespace, current) {
      const configMaps = ctx.resources.find("", "v1", "configmaps");
      if (!configMaps || (current && isPublished(current, caPem))) return undefined;
      if (!current && admissionIsPlain(ctx)) {
        const data = { "ca.crt": caPem };
        const annotation = [DESCRIPTION_ANNOTATION, DESCRIPTION] as const;
        commitSystemObject(ctx, controllerConfigMap(namespace, ROOT_CA_CONFIGMAP, annotation, data));
        return undefined;
      }
      if (!current)
        return createObject(ctx, configMaps, {
          ...write,
          namespace,
          body: {
            metadata: { name: ROOT_CA_CONFIGMAP, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
            data: { "ca.crt": caPem },
          },
        });
      // Upstream keeps other annotations and binaryData, and replaces data whole.
      const annotations = {
        ...(current.metadata.annotations as Json),
        [DESCRIPTION_ANNOTATION]: DESCRIPTION,
      };
      return updateObject(ctx, configMaps, {
        ...write,
        namespace,
        name: ROOT_CA_CONFIGMAP,
        body: { ...current, metadata: { ...current.metadata, annotations }, data: { "ca.crt": caPem } },
      });
    },
  });
}
