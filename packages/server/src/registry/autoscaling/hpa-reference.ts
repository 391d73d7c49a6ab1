/**
 * An HPA's CrossVersionObjectReference (its scaleTargetRef, an Object metric's describedObject) as
 * kube-apiserver 1.37 checks it: kind and name set and usable as path segments, and an apiVersion
 * that parses and (unless allowed otherwise) names an API group.
 */
import { pathSegmentProblems } from "../../api/names.js";
import { type FieldError, invalid, type Json, required, stringAt } from "../../validation/field-errors.js";

/** Upstream's CrossVersionObjectReferenceValidationOptions. */
export interface RefOptions {
  readonly allowEmptyGroup: boolean;
  readonly allowInvalidApiVersion: boolean;
}

/** Why an apiVersion is refused, if it is (schema.ParseGroupVersion, then the group rule). */
export function apiVersionProblem(apiVersion: string, opts: RefOptions): string | undefined {
  if (opts.allowInvalidApiVersion) return undefined;
  const slashes = apiVersion.split("/").length - 1;
  if (slashes > 1) return `unexpected GroupVersion string: ${apiVersion}`;
  const group = slashes === 1 && apiVersion !== "/" ? (apiVersion.split("/")[0] as string) : "";
  return group === "" && !opts.allowEmptyGroup ? "apiVersion must specify API group" : undefined;
}

function segmentErrors(value: string, at: string): FieldError[] {
  if (value === "") return [required(at)];
  return pathSegmentProblems(value).map((m) => invalid(at, value, m));
}

export function crossVersionRefErrors(ref: Json, at: string, opts: RefOptions): FieldError[] {
  const out = [
    ...segmentErrors(stringAt(ref.kind), `${at}.kind`),
    ...segmentErrors(stringAt(ref.name), `${at}.name`),
  ];
  const apiVersion = stringAt(ref.apiVersion);
  const problem = apiVersionProblem(apiVersion, opts);
  if (problem) out.push(invalid(`${at}.apiVersion`, apiVersion, problem));
  return out;
}
