/**
 * The shapes the Pod Security Standards checks share (upstream: pod-security-admission's
 * policy package): a check has an id, a level, the restricted check that supersedes it, and
 * versions, each the first policy version it applies to and its function of (pod metadata, pod
 * spec). The pods are plain JSON as stored, so the readers here tolerate any shape.
 */
import { isRecord, type Json } from "../target.js";

export type { Json };
export type Level = "privileged" | "baseline" | "restricted";

/** A check's answer; `reason` and `detail` only when refused. */
export interface CheckResult {
  readonly allowed: boolean;
  readonly reason?: string;
  readonly detail?: string;
}

export type CheckFn = (meta: Json, spec: Json) => CheckResult;

export interface Check {
  readonly id: string;
  readonly level: "baseline" | "restricted";
  /**
   * The restricted check that replaces this baseline check at the restricted level, for the
   * versions it has (upstream: Overlap); before that version this one still runs there.
   */
  readonly replacedBy?: string;
  /** Oldest first: the minor version (of 1.x) each function applies from. */
  readonly versions: readonly { readonly minor: number; readonly fn: CheckFn }[];
}

export const ALLOWED: CheckResult = { allowed: true };
export const refuse = (reason: string, detail = ""): CheckResult => ({ allowed: false, reason, detail });

export const rec = (v: unknown): Json => (isRecord(v) ? v : {});
export const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isRecord) : []);
export const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Init containers, containers, then ephemeral containers, as upstream's visitor walks them. */
export function containersOf(spec: Json): Json[] {
  return [...arr(spec.initContainers), ...arr(spec.containers), ...arr(spec.ephemeralContainers)];
}

export const nameOf = (c: Json): string => str(c.name);
/** A container's securityContext, or undefined when it sets none. */
export const scOf = (c: Json): Json | undefined =>
  isRecord(c.securityContext) ? c.securityContext : undefined;
export const podSc = (spec: Json): Json | undefined =>
  isRecord(spec.securityContext) ? spec.securityContext : undefined;

export const joinQuote = (items: readonly string[]): string =>
  items.length === 0 ? "" : `"${items.join('", "')}"`;
export const plural = (singular: string, many: string, n: number): string => (n === 1 ? singular : many);
/** Go's sets.List: distinct values in byte order. */
export const sortedSet = (items: Iterable<string>): string[] =>
  [...new Set(items)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** `containers "a", "b"` (or `container "a"`). */
export const containersPhrase = (names: readonly string[]): string =>
  `${plural("container", "containers", names.length)} ${joinQuote(names)}`;

/** `pod and containers "a"`: the setters of a pod-level and container-level field. */
export function settersPhrase(pod: boolean, names: readonly string[]): string {
  const parts = pod ? ["pod"] : [];
  if (names.length > 0) parts.push(containersPhrase(names));
  return parts.join(" and ");
}

export const isWindowsPod = (spec: Json): boolean => rec(spec.os).name === "windows";
