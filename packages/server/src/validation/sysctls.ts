/**
 * A pod's sysctls (validateSysctls upstream): each named, the name a dotted or slashed sequence of
 * lower-case segments of at most 253 characters, no name twice.
 */
import { duplicate, type FieldError, invalid, listAt, obj, required, str } from "./field-errors.js";

const SEGMENT = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
const NAME_PATTERN = `^(${SEGMENT}[\\./])*${SEGMENT}$`;
const NAME_RE = new RegExp(NAME_PATTERN);
const NAME_MAX = 253;
const NAME_DETAIL = `must have at most ${NAME_MAX} characters and match regex ${NAME_PATTERN}`;

export function sysctlErrors(sysctls: unknown, at: string): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  listAt(sysctls).forEach((raw, i) => {
    const name = str(obj(raw).name);
    const field = `${at}[${i}].name`;
    if (name === "") out.push(required(field));
    else if (name.length > NAME_MAX || !NAME_RE.test(name)) out.push(invalid(field, name, NAME_DETAIL));
    else if (seen.has(name)) out.push(duplicate(field, name));
    seen.add(name);
  });
  return out;
}

/** Single sysctls that belong to the IPC or UTS namespace; everything else goes by prefix. */
const NAMESPACE_OF_NAME: Record<string, string> = {
  "kernel.domainname": "UTS",
  "kernel.sem": "IPC",
  "kernel.shmall": "IPC",
  "kernel.shmmax": "IPC",
  "kernel.shmmni": "IPC",
  "kernel.shm_rmid_forced": "IPC",
  "kernel.shm": "IPC",
  "kernel.msgmax": "IPC",
  "kernel.msgmnb": "IPC",
  "kernel.msgmni": "IPC",
  "kernel.msg": "IPC",
};
const NAMESPACE_OF_PREFIX: [string, string][] = [
  ["net.", "Net"],
  ["fs.mqueue.", "IPC"],
  ["user.", "User"],
];

/** A slashed name (kernel/shm_rmid_forced) read as its dotted form; a trailing `*` is a prefix. */
function sysctlNamespace(name: string): string {
  const sep = name.search(/[./]/);
  let n = sep === -1 || name[sep] === "." ? name : name.replace(/[./]/g, (c) => (c === "." ? "/" : "."));
  const star = n.indexOf("*");
  if (star !== -1) n = n.slice(0, star);
  return NAMESPACE_OF_NAME[n] ?? NAMESPACE_OF_PREFIX.find(([p]) => n.startsWith(p))?.[1] ?? "";
}

/** ValidateHostSysctl: a pod sharing the host's network or IPC namespace may not set its sysctls. */
export function hostSysctlErrors(spec: Record<string, unknown>, sysctls: unknown, at: string): FieldError[] {
  const out: FieldError[] = [];
  listAt(sysctls).forEach((raw, i) => {
    const name = str(obj(raw).name);
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork === true && ns === "Net")
      out.push(invalid(`${at}[${i}].name`, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && ns === "IPC")
      out.push(invalid(`${at}[${i}].name`, name, "may not be specified when 'hostIPC' is true"));
  });
  return out;
}
