/**
 * The Kubernetes format library for CEL: `format.<name>()` and
 * `format.named(name)` give a named format, `<format>.validate(s)` gives
 * optional.none() for a valid string and optional.of(messages) otherwise.
 * The name formats report apimachinery's messages; the schema formats (uri,
 * uuid, byte, date, datetime) report the library's one-line messages.
 */

import { matchesStringFormat, requestUriProblems } from "@kubesdk/models/internal";
import { type Environment, Optional } from "@marcbachmann/cel-js";
import { dns1035Label, dnsLabel, dnsSubdomain } from "../../validation/name-formats.js";
import { labelValueProblems, qualifiedNameProblems } from "../../validation/object-meta.js";

export class NamedFormat {
  constructor(
    readonly name: string,
    readonly problems: (s: string) => string[],
  ) {}
}

const one = (ok: (s: string) => boolean, message: string) => (s: string) => (ok(s) ? [] : [message]);

/** The formats upstream's library lists, by the name CEL uses. */
export const NAMED_FORMATS: ReadonlyMap<string, NamedFormat> = new Map(
  (
    [
      ["dns1123Label", (s) => dnsLabel(s, false)],
      ["dns1123Subdomain", (s) => dnsSubdomain(s, false)],
      ["dns1035Label", (s) => dns1035Label(s, false)],
      ["qualifiedName", qualifiedNameProblems],
      ["dns1123LabelPrefix", (s) => dnsLabel(s, true)],
      ["dns1123SubdomainPrefix", (s) => dnsSubdomain(s, true)],
      ["dns1035LabelPrefix", (s) => dns1035Label(s, true)],
      ["labelValue", labelValueProblems],
      ["uri", requestUriProblems],
      ["uuid", one((s) => matchesStringFormat("uuid", s), "does not match the UUID format")],
      ["byte", one((s) => matchesStringFormat("byte", s), "invalid base64")],
      ["date", one((s) => matchesStringFormat("date", s), "invalid date")],
      ["datetime", one((s) => matchesStringFormat("datetime", s), "invalid datetime")],
    ] as [string, (s: string) => string[]][]
  ).map(([name, f]) => [name, new NamedFormat(name, f)]),
);

/** The `format` namespace value: CEL calls `format.named(…)` as a method of it. */
class FormatNamespace {}

export function registerFormat(env: Environment): void {
  const F = "kubernetes.NamedFormat";
  env.registerType(F, NamedFormat);
  env.registerType("k8s.format", FormatNamespace);
  env.registerConstant("format", "k8s.format", new FormatNamespace());
  for (const [name, f] of NAMED_FORMATS) env.registerFunction(`k8s.format.${name}(): ${F}`, () => f);
  env.registerFunction(`k8s.format.named(string): optional<${F}>`, (_: unknown, name: string) => {
    const f = NAMED_FORMATS.get(name);
    return f ? Optional.of(f) : Optional.none();
  });
  env.registerFunction(`${F}.validate(string): optional<list<string>>`, (f: NamedFormat, s: string) => {
    const problems = f.problems(s);
    return problems.length === 0 ? Optional.none() : Optional.of(problems);
  });
}
