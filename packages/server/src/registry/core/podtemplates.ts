/** PodTemplates: the template's pod spec defaulted and validated as ValidatePodTemplate does it. */
import { objectAt } from "../../validation/field-errors.js";
import { podTemplateSpecErrors } from "../../validation/pod-template.js";
import type { KindStrategy } from "../strategy.js";
import { defaultTemplate } from "./pod-template-defaults.js";

export const podtemplates: KindStrategy = {
  group: "",
  resource: "podtemplates",
  defaults: defaultTemplate,
  validate: (obj) => podTemplateSpecErrors(objectAt(obj.template), "template"),
};
