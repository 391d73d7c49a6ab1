/**
 * ValidateStatefulSetSpec: pod management and update strategies, claim retention, counters, the
 * governing service's name, the selector and the template (whose volume mounts may name the volume
 * claim templates), and the fields an update may not change.
 */

import { dnsLabelErrors } from "../../validation/containers.js";
import {
  type FieldError,
  goStruct,
  invalid,
  isObject,
  listAt,
  nonNegative,
  notSupported,
  objectAt,
  required,
  stringAt,
  unchanged,
} from "../../validation/field-errors.js";
import { renderSelector, selectorUnchanged } from "../../validation/label-selector.js";
import { controllerTemplateErrors } from "../../validation/pod-template.js";
import { claimSpecErrors } from "../../validation/volume-claims.js";
import {
  atMost100Percent,
  counterErrors,
  intOrPercentErrors,
  intOrPercentValue,
  selectorCheck,
} from "./workload-rules.js";

type Json = Record<string, unknown>;

function podManagementErrors(policy: string): FieldError[] {
  if (policy === "") return [required("spec.podManagementPolicy")];
  if (policy === "OrderedReady" || policy === "Parallel") return [];
  return [invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'")];
}

function statefulRollingUpdateShown(ru: unknown): unknown {
  if (!isObject(ru)) return null;
  return {
    Partition: typeof ru.partition === "number" ? ru.partition : 0,
    MaxUnavailable: ru.maxUnavailable ?? null,
  };
}

function updateStrategyErrors(strategy: Json): FieldError[] {
  const type = stringAt(strategy.type);
  const ru = strategy.rollingUpdate;
  const at = "spec.updateStrategy.rollingUpdate";
  if (type === "") return [required("spec.updateStrategy")];
  if (type === "OnDelete")
    return isObject(ru)
      ? [
          invalid(
            at,
            goStruct(Object.entries(statefulRollingUpdateShown(ru) as Json)),
            "only allowed for updateStrategy 'RollingUpdate'",
          ),
        ]
      : [];
  if (type !== "RollingUpdate")
    return [
      invalid(
        "spec.updateStrategy",
        goStruct([
          ["Type", type],
          ["RollingUpdate", statefulRollingUpdateShown(ru)],
        ]),
        "must be 'RollingUpdate' or 'OnDelete'",
      ),
    ];
  if (!isObject(ru)) return [];
  const out = nonNegative(`${at}.partition`, ru.partition);
  if (ru.maxUnavailable != null) {
    out.push(...intOrPercentErrors(ru.maxUnavailable, `${at}.maxUnavailable`));
    if (intOrPercentValue(ru.maxUnavailable) === 0)
      out.push(invalid(`${at}.maxUnavailable`, ru.maxUnavailable, "cannot be 0"));
    out.push(...atMost100Percent(ru.maxUnavailable, `${at}.maxUnavailable`));
  }
  return out;
}

function retentionErrors(policy: unknown): FieldError[] {
  if (!isObject(policy)) return [];
  const out: FieldError[] = [];
  for (const k of ["whenDeleted", "whenScaled"]) {
    const v = stringAt(policy[k]);
    if (v !== "Retain" && v !== "Delete")
      out.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${k}`, v, ["Retain", "Delete"]));
  }
  return out;
}

/** The template as validated: no hostname or subdomain, the claim templates as volumes. */
function templateToValidate(spec: Json): Json {
  const template = structuredClone(objectAt(spec.template));
  const podSpec = objectAt(template.spec);
  delete podSpec.hostname;
  delete podSpec.subdomain;
  const claims = listAt(spec.volumeClaimTemplates).map((c) => stringAt(objectAt(objectAt(c).metadata).name));
  if (claims.length > 0) {
    const own = listAt(podSpec.volumes).filter((v) => !claims.includes(stringAt(objectAt(v).name)));
    podSpec.volumes = [
      ...claims.map((name) => ({ name, persistentVolumeClaim: { claimName: name } })),
      ...own,
    ];
  }
  template.spec = podSpec;
  return template;
}

export function statefulSetSpecErrors(spec: Json): FieldError[] {
  const out = podManagementErrors(stringAt(spec.podManagementPolicy));
  out.push(...updateStrategyErrors(objectAt(spec.updateStrategy)));
  out.push(...retentionErrors(spec.persistentVolumeClaimRetentionPolicy));
  listAt(spec.volumeClaimTemplates).forEach((c, i) => {
    out.push(...claimSpecErrors(objectAt(objectAt(c).spec), `spec.volumeClaimTemplates[${i}].spec`));
  });
  out.push(...counterErrors(spec, ["replicas", "minReadySeconds"]));
  const start = objectAt(spec.ordinals).start;
  if (typeof start === "number" && start < 0)
    out.push(invalid("spec.ordinals.start", start, "must be greater than or equal to 0"));
  const service = stringAt(spec.serviceName);
  if (service !== "") out.push(...dnsLabelErrors(service, "spec.serviceName"));
  const sel = selectorCheck(spec, "statefulset");
  out.push(...sel.errors);
  if (!sel.converts) out.push(invalid("spec.selector", renderSelector(spec.selector), ""));
  else
    out.push(
      ...controllerTemplateErrors(templateToValidate(spec), sel.matches, "StatefulSet", "spec.template"),
    );
  return out;
}

export function statefulSetUpdateErrors(spec: Json, before: Json): FieldError[] {
  return [
    ...selectorUnchanged(spec, before),
    ...unchanged("spec.volumeClaimTemplates", spec.volumeClaimTemplates, before.volumeClaimTemplates),
    ...unchanged("spec.serviceName", spec.serviceName, before.serviceName, stringAt(spec.serviceName)),
    ...unchanged(
      "spec.podManagementPolicy",
      spec.podManagementPolicy,
      before.podManagementPolicy,
      stringAt(spec.podManagementPolicy),
    ),
  ];
}
