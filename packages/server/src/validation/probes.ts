/**
 * Probes and lifecycle handlers of a container: exactly one handler (exec, httpGet, tcpSocket,
 * grpc, sleep), each handler's own fields, non-negative timings, and the rules per probe kind
 * (liveness and startup succeed after one success; readiness has no grace period of its own).
 */
import {
  type FieldError,
  forbidden,
  invalid,
  isObject,
  listAt,
  nonNegative,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { portNameProblems, portNumberProblems } from "./format-rules.js";

type Json = Record<string, unknown>;

/** ValidatePortNumOrName: a number in 1-65535 or an IANA service name. */
export function portNumOrNameErrors(port: unknown, field: string): FieldError[] {
  if (typeof port === "number") return portNumberProblems(port).map((m) => invalid(field, port, m));
  const name = stringAt(port);
  return portNameProblems(name).map((m) => invalid(field, name, m));
}

function httpGetErrors(h: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  if (stringAt(h.path) === "") out.push(required(`${at}.path`));
  out.push(...portNumOrNameErrors(h.port, `${at}.port`));
  const scheme = stringAt(h.scheme);
  if (scheme !== "HTTP" && scheme !== "HTTPS")
    out.push(notSupported(`${at}.scheme`, scheme, ["HTTP", "HTTPS"]));
  return out;
}

const HANDLERS: readonly (readonly [string, (h: Json, at: string) => FieldError[]])[] = [
  ["exec", (h, at) => (listAt(h.command).length === 0 ? [required(`${at}.command`)] : [])],
  ["httpGet", httpGetErrors],
  ["tcpSocket", (h, at) => portNumOrNameErrors(h.port, `${at}.port`)],
  ["grpc", (h, at) => portNumOrNameErrors(typeof h.port === "number" ? h.port : 0, `${at}.port`)],
  ["sleep", () => []],
];

/** validateHandler: exactly one handler type, each checked. */
export function handlerErrors(handler: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  let count = 0;
  for (const [key, check] of HANDLERS) {
    if (!isObject(handler[key])) continue;
    if (count > 0) out.push(forbidden(`${at}.${key}`, "may not specify more than 1 handler type"));
    else {
      count++;
      out.push(...check(handler[key] as Json, `${at}.${key}`));
    }
  }
  if (count === 0) out.push(required(at, "must specify a handler type"));
  return out;
}

function probeErrors(probe: Json, at: string): FieldError[] {
  const out = handlerErrors(probe, at);
  for (const k of [
    "initialDelaySeconds",
    "timeoutSeconds",
    "periodSeconds",
    "successThreshold",
    "failureThreshold",
  ])
    out.push(...nonNegative(`${at}.${k}`, probe[k]));
  const grace = probe.terminationGracePeriodSeconds;
  if (typeof grace === "number" && grace <= 0)
    out.push(invalid(`${at}.terminationGracePeriodSeconds`, grace, "must be greater than 0"));
  return out;
}

/** The liveness, readiness and startup probes of a container that may have them. */
export function containerProbeErrors(c: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  for (const kind of ["livenessProbe", "readinessProbe", "startupProbe"]) {
    if (!isObject(c[kind])) continue;
    const probe = objectAt(c[kind]);
    const path = `${at}.${kind}`;
    out.push(...probeErrors(probe, path));
    if (kind !== "readinessProbe" && probe.successThreshold !== 1)
      out.push(invalid(`${path}.successThreshold`, probe.successThreshold ?? 0, "must be 1"));
    if (kind === "readinessProbe" && probe.terminationGracePeriodSeconds != null)
      out.push(
        invalid(
          `${path}.terminationGracePeriodSeconds`,
          probe.terminationGracePeriodSeconds,
          "must not be set for readinessProbes",
        ),
      );
  }
  return out;
}
