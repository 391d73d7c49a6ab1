/**
 * Probes and lifecycle hooks of a container: exactly one handler (exec, httpGet, tcpSocket, and
 * grpc for probes or sleep for hooks), each handler's own fields, non-negative timings, and the rules per probe kind
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

const HEADER_NAME = /^[-A-Za-z0-9]+$/;
const HEADER_MESSAGE =
  "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";

function httpGetErrors(h: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  if (stringAt(h.path) === "") out.push(required(`${at}.path`));
  out.push(...portNumOrNameErrors(h.port, `${at}.port`));
  const scheme = stringAt(h.scheme);
  if (scheme !== "HTTP" && scheme !== "HTTPS")
    out.push(notSupported(`${at}.scheme`, scheme, ["HTTP", "HTTPS"]));
  for (const header of listAt(h.httpHeaders)) {
    const name = stringAt(objectAt(header).name);
    if (!HEADER_NAME.test(name)) out.push(invalid(`${at}.httpHeaders`, name, HEADER_MESSAGE));
  }
  return out;
}

type HandlerCheck = (h: Json, at: string) => FieldError[];

const COMMON_HANDLERS: readonly (readonly [string, HandlerCheck])[] = [
  ["exec", (h, at) => (listAt(h.command).length === 0 ? [required(`${at}.command`)] : [])],
  ["httpGet", httpGetErrors],
  ["tcpSocket", (h, at) => portNumOrNameErrors(h.port, `${at}.port`)],
];
/** A probe's handlers (a sleep is no probe handler: decoding drops it). */
const PROBE_HANDLERS = [
  ...COMMON_HANDLERS,
  [
    "grpc",
    (h: Json, at: string) => portNumOrNameErrors(typeof h.port === "number" ? h.port : 0, `${at}.port`),
  ] as const,
];

/** A lifecycle hook's handlers: a sleep within the pod's grace period (zero allowed in 1.37). */
const lifecycleHandlers = (grace: unknown) => [
  ...COMMON_HANDLERS,
  [
    "sleep",
    (h: Json, at: string) => {
      const seconds = typeof h.seconds === "number" ? h.seconds : 0;
      if (typeof grace !== "number" || (seconds >= 0 && seconds <= grace)) return [];
      return [
        invalid(at, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${grace})`),
      ];
    },
  ] as const,
];

/** validateHandler: exactly one handler type, each checked. */
function handlerErrors(
  handler: Json,
  at: string,
  handlers: readonly (readonly [string, HandlerCheck])[] = PROBE_HANDLERS,
): FieldError[] {
  const out: FieldError[] = [];
  let count = 0;
  for (const [key, check] of handlers) {
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

/** validateLifecycle: each hook set has exactly one handler; `grace` is the pod's grace period. */
export function lifecycleErrors(lifecycle: unknown, at: string, grace: unknown): FieldError[] {
  if (!isObject(lifecycle)) return [];
  const out: FieldError[] = [];
  for (const hook of ["postStart", "preStop"])
    if (isObject(lifecycle[hook]))
      out.push(...handlerErrors(lifecycle[hook], `${at}.${hook}`, lifecycleHandlers(grace)));
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
