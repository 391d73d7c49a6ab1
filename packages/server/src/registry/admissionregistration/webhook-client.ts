/**
 * Validation of a webhook's `clientConfig` (shared by admission webhook configurations): exactly one
 * of `url` (https, a host, no user information, query or fragment) and `service` (name, namespace,
 * a path starting with '/', a port in 1..65535), with kube-apiserver's messages.
 */
import type { FieldError } from "../../api/status.js";

type Json = Record<string, unknown>;
const FORMAT = "desired format: https://host[/path]";

function urlErrors(raw: string, field: string): FieldError[] {
  const invalid = (value: unknown, detail: string): FieldError[] => [
    { type: "FieldValueInvalid", field, value, detail },
  ];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1];
    if (scheme !== undefined && scheme.toLowerCase() !== "https")
      return invalid(scheme, `'https' is the only allowed URL scheme; ${FORMAT}`);
    return invalid("", `host must be specified; ${FORMAT}`);
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== "https") return invalid(scheme, `'https' is the only allowed URL scheme; ${FORMAT}`);
  // WHATWG URLs skip extra slashes (https:///x has host "x"); Go's parser sees no host there.
  if (url.hostname === "" || /^https:\/\/(\/|$)/i.test(raw))
    return invalid("", `host must be specified; ${FORMAT}`);
  if (url.username !== "" || url.password !== "") {
    const user = url.password !== "" ? `${url.username}:${url.password}` : url.username;
    return invalid(decodeURIComponent(user), "user information is not permitted in the URL");
  }
  if (url.hash !== "") return invalid(url.hash.slice(1), "fragments are not permitted in the URL");
  if (url.search !== "") return invalid(url.search.slice(1), "query parameters are not permitted in the URL");
  return [];
}

function serviceErrors(s: Json, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name) errs.push({ type: "FieldValueRequired", field: `${field}.name`, detail: "" });
  // kube-apiserver names the field `name` for a missing namespace too.
  if (s.name && !s.namespace) errs.push({ type: "FieldValueRequired", field: `${field}.name`, detail: "" });
  const path = s.path;
  if (typeof path === "string" && path !== "" && !path.startsWith("/"))
    errs.push({
      type: "FieldValueInvalid",
      field: `${field}.path`,
      value: path,
      detail: "must start with a '/'",
    });
  const port = s.port;
  if (typeof port === "number" && (port < 1 || port > 65535 || !Number.isInteger(port)))
    errs.push({
      type: "FieldValueInvalid",
      field: `${field}.port`,
      value: port,
      detail: "port is not valid: must be between 1 and 65535, inclusive",
    });
  return errs;
}

export function clientConfigErrors(c: Json | undefined, field: string): FieldError[] {
  const url = c?.url;
  const service = c?.service as Json | undefined;
  if ((url === undefined) === (service === undefined))
    return [{ type: "FieldValueRequired", field, detail: "exactly one of url or service is required" }];
  if (typeof url === "string") return urlErrors(url, `${field}.url`);
  return serviceErrors(service ?? {}, `${field}.service`);
}
