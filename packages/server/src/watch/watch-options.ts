/** Parsing and validating the query of a watch request (docs/api-semantics.md §4). */
import { errors, type FieldError } from "../api/status.js";
import { parseResourceVersion } from "../handlers/resource-version.js";

export interface WatchOptions {
  /** undefined = unset, 0 = "0", N = after revision N. */
  readonly resourceVersion: number | undefined;
  readonly allowBookmarks: boolean;
  /** Seconds until the server ends the stream. */
  readonly timeoutSeconds: number;
  readonly sendInitialEvents: boolean | undefined;
}

function parseBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null || v === "") return undefined;
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw errors.badRequest(`${name}: invalid boolean value "${v}"`);
}

/** Upstream picks a timeout in [minRequestTimeout, 2×minRequestTimeout) when the client gives none. */
function defaultTimeoutSeconds(): number {
  return 1800 + Math.floor(Math.random() * 1800);
}

export function parseWatchOptions(q: URLSearchParams, watchListEnabled: boolean): WatchOptions {
  const sendInitialEvents = parseBool(q, "sendInitialEvents");
  const match = q.get("resourceVersionMatch") ?? "";
  const errs: FieldError[] = [];
  if (sendInitialEvents !== undefined) {
    if (match !== "NotOlderThan")
      errs.push({
        type: "FieldValueForbidden",
        field: "resourceVersionMatch",
        detail: "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
      });
    if (!watchListEnabled)
      errs.push({
        type: "FieldValueForbidden",
        field: "sendInitialEvents",
        detail: "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
      });
  }
  if (match !== "") {
    if (sendInitialEvents === undefined)
      errs.push({
        type: "FieldValueForbidden",
        field: "resourceVersionMatch",
        detail: "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
      });
    if (match !== "NotOlderThan")
      errs.push({
        type: "FieldValueNotSupported",
        field: "resourceVersionMatch",
        value: match,
        detail: 'supported values: "NotOlderThan"',
      });
    if ((q.get("continue") ?? "") !== "")
      errs.push({
        type: "FieldValueForbidden",
        field: "resourceVersionMatch",
        detail: "resourceVersionMatch is forbidden when continue is provided",
      });
  }
  if (errs.length > 0) throw errors.invalid("ListOptions", "meta.k8s.io", "", errs);
  const rawTimeout = q.get("timeoutSeconds");
  let timeoutSeconds = defaultTimeoutSeconds();
  if (rawTimeout !== null && rawTimeout !== "") {
    if (!/^\d+$/.test(rawTimeout)) throw errors.badRequest(`timeoutSeconds: invalid value "${rawTimeout}"`);
    if (Number(rawTimeout) > 0) timeoutSeconds = Number(rawTimeout);
  }
  return {
    resourceVersion: parseResourceVersion(q.get("resourceVersion")),
    allowBookmarks: parseBool(q, "allowWatchBookmarks") ?? false,
    timeoutSeconds,
    sendInitialEvents,
  };
}
