/** Parsing and validating the query of a watch request (docs/api-semantics.md §4). */
import { queryBool, queryOptionalBool } from "../api/query-bool.js";
import { errors, type FieldError } from "../api/status.js";
import { parseInt64Param } from "../endpoints/handlers/options.js";
import { parseResourceVersion } from "../endpoints/handlers/resource-version.js";

export interface WatchOptions {
  /** undefined = unset, 0 = "0", N = after revision N. */
  readonly resourceVersion: number | undefined;
  readonly allowBookmarks: boolean;
  /** Seconds until the server ends the stream. */
  readonly timeoutSeconds: number;
  readonly sendInitialEvents: boolean | undefined;
}

/** Upstream picks a timeout in [minRequestTimeout, 2×minRequestTimeout) when the client gives none. */
function defaultTimeoutSeconds(): number {
  return 1800 + Math.floor(Math.random() * 1800);
}

const NS_PER_SECOND = 1_000_000_000n;

/**
 * timeoutSeconds as kube-apiserver applies it: an int64 (400 with strconv's wording otherwise),
 * 0 meaning the default, and otherwise `time.Duration(n) * time.Second`, which wraps around int64;
 * a duration that comes out zero or negative (`-1`, or a huge value that wrapped) ends the watch
 * at once.
 */
function watchTimeoutSeconds(raw: string | null): number {
  if (raw === null) return defaultTimeoutSeconds();
  const n = parseInt64Param(raw);
  if (n === 0) return defaultTimeoutSeconds();
  const ns = BigInt.asIntN(64, BigInt(raw.replace(/^\+/, "")) * NS_PER_SECOND);
  return ns <= 0n ? 0 : Number(ns / NS_PER_SECOND);
}

export function parseWatchOptions(q: URLSearchParams, watchListEnabled: boolean): WatchOptions {
  const sendInitialEvents = queryOptionalBool(q, "sendInitialEvents");
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
  const timeoutSeconds = watchTimeoutSeconds(q.get("timeoutSeconds"));
  return {
    resourceVersion: parseResourceVersion(q.get("resourceVersion")),
    allowBookmarks: queryBool(q, "allowWatchBookmarks"),
    timeoutSeconds,
    sendInitialEvents,
  };
}
