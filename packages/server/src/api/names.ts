/** Object name rules and generateName, as apimachinery validates and generates them. */
import { randomInt } from "node:crypto";
import type { FieldError } from "./status.js";

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export type NameRule = "subdomain" | "label" | "path-segment";

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const DNS_RULES = {
  label: { maxLength: 63, pattern: DNS1123_LABEL, message: LABEL_MSG },
  subdomain: { maxLength: 253, pattern: DNS1123_SUBDOMAIN, message: SUBDOMAIN_MSG },
} as const;

/** Why a name cannot be a path segment (apimachinery's path segment rule), if it cannot. */
export function pathSegmentProblems(name: string): string[] {
  const problems: string[] = [];
  if (name === "." || name === "..") problems.push(`may not be '${name}'`);
  for (const bad of ["/", "%"]) if (name.includes(bad)) problems.push(`may not contain '${bad}'`);
  return problems;
}

/** Validates metadata.name (or the value at `field`) under a rule; returns the errors. */
export function validateName(name: string, rule: NameRule, field = "metadata.name"): FieldError[] {
  const invalid = (detail: string): FieldError => ({ type: "FieldValueInvalid", field, value: name, detail });
  if (rule === "path-segment") return pathSegmentProblems(name).map(invalid);
  const { maxLength, pattern, message } = DNS_RULES[rule];
  const errs: FieldError[] = [];
  if (name.length > maxLength) errs.push(invalid(`must be no more than ${maxLength} characters`));
  if (!pattern.test(name)) errs.push(invalid(message));
  return errs;
}

const ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
const MAX_BASE = 58;

/** `generateName` + 5 random characters, with the base cut so the result fits 63 characters. */
export function generateName(base: string): string {
  const cut = base.length > MAX_BASE ? base.slice(0, MAX_BASE) : base;
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return cut + suffix;
}

/** RFC 3339 in UTC with whole seconds, as metav1.Time marshals. */
export function nowTimestamp(now: number = Date.now()): string {
  const second = Math.floor(now / 1000);
  // Every write stamps a time or two, mostly within the same second: format each second once.
  if (second !== lastSecond) {
    lastSecond = second;
    lastStamp = `${new Date(second * 1000).toISOString().slice(0, 19)}Z`;
  }
  return lastStamp;
}

let lastSecond = Number.NaN;
let lastStamp = "";
