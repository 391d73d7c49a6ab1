/**
 * Security contexts as kube-apiserver shows them in a message: its internal Go structs have no
 * JSON tags, so they print with Go's field names, in declaration order, every field present (an
 * unset pointer or slice is null, an unset string is "").
 */
import { GoSyntax } from "../api/status.js";
import { isSet, obj, str } from "./field-errors.js";

/** A field: its Go name, its JSON name, and how it prints ("string" for a non-pointer string). */
type Shape = readonly (readonly [string, string, "string" | "plain" | Shape])[];

const PROFILE: Shape = [
  ["Type", "type", "string"],
  ["LocalhostProfile", "localhostProfile", "plain"],
];
const CAPABILITIES: Shape = [
  ["Add", "add", "plain"],
  ["Drop", "drop", "plain"],
];
const SELINUX: Shape = [
  ["User", "user", "string"],
  ["Role", "role", "string"],
  ["Type", "type", "string"],
  ["Level", "level", "string"],
];
const WINDOWS: Shape = [
  ["GMSACredentialSpecName", "gmsaCredentialSpecName", "plain"],
  ["GMSACredentialSpec", "gmsaCredentialSpec", "plain"],
  ["RunAsUserName", "runAsUserName", "plain"],
  ["HostProcess", "hostProcess", "plain"],
];
const CONTAINER_CONTEXT: Shape = [
  ["Capabilities", "capabilities", CAPABILITIES],
  ["Privileged", "privileged", "plain"],
  ["SELinuxOptions", "seLinuxOptions", SELINUX],
  ["WindowsOptions", "windowsOptions", WINDOWS],
  ["RunAsUser", "runAsUser", "plain"],
  ["RunAsGroup", "runAsGroup", "plain"],
  ["RunAsNonRoot", "runAsNonRoot", "plain"],
  ["ReadOnlyRootFilesystem", "readOnlyRootFilesystem", "plain"],
  ["AllowPrivilegeEscalation", "allowPrivilegeEscalation", "plain"],
  ["ProcMount", "procMount", "plain"],
  ["SeccompProfile", "seccompProfile", PROFILE],
  ["AppArmorProfile", "appArmorProfile", PROFILE],
];

function render(value: Record<string, unknown>, shape: Shape): string {
  const body = shape.map(([goName, jsonName, kind]) => {
    const v = value[jsonName];
    let text: string;
    if (kind === "string") text = JSON.stringify(str(v));
    else if (!isSet(v)) text = "null";
    else if (kind === "plain") text = JSON.stringify(v);
    else text = render(obj(v), kind);
    return `${JSON.stringify(goName)}:${text}`;
  });
  return `{${body.join(",")}}`;
}

/** A seccomp profile as a message shows it. */
export const shownProfile = (profile: unknown): GoSyntax => new GoSyntax(render(obj(profile), PROFILE));

/** A container's security context as a message shows it. */
export const shownContainerContext = (context: unknown): GoSyntax =>
  new GoSyntax(render(obj(context), CONTAINER_CONTEXT));
