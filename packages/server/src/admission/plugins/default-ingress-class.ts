/**
 * DefaultIngressClass (upstream plugin/pkg/admission/network/defaultingressclass): a new Ingress
 * that names no class (neither `spec.ingressClassName` nor the `kubernetes.io/ingress.class`
 * annotation) gets the IngressClass annotated `ingressclass.kubernetes.io/is-default-class: "true"`,
 * the newest when several are (default-class.ts).
 */
import { defaultClassPlugin } from "./default-class.js";

export const defaultIngressClass = defaultClassPlugin({
  name: "DefaultIngressClass",
  group: "networking.k8s.io",
  resource: "ingresses",
  field: "ingressClassName",
  classAnnotation: "kubernetes.io/ingress.class",
  classes: "networking.k8s.io/ingressclasses",
  defaultAnnotations: ["ingressclass.kubernetes.io/is-default-class"],
});
