/**
 * Where the protobuf and JSON forms of the same Go struct disagree on field names.
 *
 * The generated.proto field names are the JSON names except in three ways, all checked by the
 * k8s.io/api fixtures: (1) a few proto names were derived from the Go field name instead of the
 * json tag (`Webhooks`, `uID`, `aPIGroup`); (2) JSONSchemaProps uses `$ref`, `$schema` and
 * `x-kubernetes-*` JSON names that proto identifiers cannot spell; (3) Go structs embedded with
 * `json:",inline"` are a message field in proto but their fields sit in the parent's JSON object.
 */

/** Simple message name → proto fields whose message is inlined into the parent's JSON. */
const inlinedFields: Readonly<Record<string, readonly string[]>> = {
  ConfigMapEnvSource: ["localObjectReference"],
  ConfigMapKeySelector: ["localObjectReference"],
  ConfigMapProjection: ["localObjectReference"],
  ConfigMapVolumeSource: ["localObjectReference"],
  SecretEnvSource: ["localObjectReference"],
  SecretKeySelector: ["localObjectReference"],
  SecretProjection: ["localObjectReference"],
  DeviceAllocationConfiguration: ["deviceConfiguration"],
  DeviceClaimConfiguration: ["deviceConfiguration"],
  DeviceClassConfiguration: ["deviceConfiguration"],
  EphemeralContainer: ["ephemeralContainerCommon"],
  IngressRule: ["ingressRuleValue"],
  NamedRuleWithOperations: ["ruleWithOperations"],
  RuleWithOperations: ["rule"],
  PersistentVolumeSpec: ["persistentVolumeSource"],
  Probe: ["handler"],
  Volume: ["volumeSource"],
};

/**
 * Simple message name → proto fields named after the Go field rather than the json tag. No rule
 * tells these apart from DaemonEndpoint's `Port`, whose json tag really is "Port".
 */
const renamedFields: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  MutatingWebhookConfiguration: { Webhooks: "webhooks" },
  ValidatingWebhookConfiguration: { Webhooks: "webhooks" },
  Validation: { Expression: "expression" },
  Variable: { Name: "name", Expression: "expression" },
  BoundObjectReference: { uID: "uid" },
  IngressClassParametersReference: { aPIGroup: "apiGroup" },
};

const jsonSchemaPropsNames: Readonly<Record<string, string>> = { ref: "$ref", schema: "$schema" };

/** True when `protoField` of `messageFullName` is a Go struct inlined into the parent's JSON. */
export function isInlined(messageFullName: string, protoField: string): boolean {
  const simple = messageFullName.slice(messageFullName.lastIndexOf(".") + 1);
  return inlinedFields[simple]?.includes(protoField) ?? false;
}

/** The JSON name of a proto field. */
export function jsonNameOf(messageFullName: string, protoField: string): string {
  const simple = messageFullName.slice(messageFullName.lastIndexOf(".") + 1);
  const renamed = renamedFields[simple]?.[protoField];
  if (renamed) return renamed;
  if (simple === "JSONSchemaProps" && messageFullName.includes(".apiextensions.")) {
    const special = jsonSchemaPropsNames[protoField];
    if (special) return special;
    if (protoField.startsWith("xKubernetes"))
      return protoField.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  }
  return protoField;
}
