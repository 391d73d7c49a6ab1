/**
 * DefaultIngressClass (upstream plugin/pkg/admission/network/defaultingressclass): a new Ingress
 * that names no class (neither `spec.ingressClassName` nor the `kubernetes.io/ingress.class`
 * annotation) gets the IngressClass annotated `ingressclass.kubernetes.io/is-default-class: "true"`,
 * the newest when several are (default-class.ts).
 */
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { defaultClassName, recordAt } from "./default-class.js";

const CLASSES = "networking.k8s.io/ingressclasses";
const CLASS_ANNOTATION = "kubernetes.io/ingress.class";
const DEFAULT_ANNOTATIONS = ["ingressclass.kubernetes.io/is-default-class"];

export const defaultIngressClass: AdmissionPlugin = {
  name: "DefaultIngressClass",
  handles: handlesOnly("CREATE"),
  admit(a, ctx) {
    const { group, resource } = a.resource;
    if (a.subresource !== "" || group !== "networking.k8s.io" || resource !== "ingresses" || !a.object)
      return;
    const spec = recordAt(a.object, "spec");
    const named = recordAt(a.object.metadata, "annotations")[CLASS_ANNOTATION] !== undefined;
    if (named || (spec.ingressClassName !== undefined && spec.ingressClassName !== null)) return;
    const name = defaultClassName(ctx, CLASSES, DEFAULT_ANNOTATIONS);
    if (name !== undefined) a.object.spec = { ...spec, ingressClassName: name };
  },
};
