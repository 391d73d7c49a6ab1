/**
 * What is compared of one answer: the status code, the Status reason and its causes (field, reason
 * and message, sorted: Go's map order makes upstream's cause order random), and for a created object
 * which of the metadata maps and lists it kept. The accepted differences are the
 * `yaml differential-accepted` block of docs/divergences.md: `{ id: <pattern>, divergence: <entry> }`,
 * `*` standing for any run of characters in a case id.
 */
import { readFile } from "node:fs/promises";
import YAML from "yaml";

export interface Answer {
  readonly code: number;
  readonly reason?: string;
  readonly causes?: readonly string[];
  readonly kept?: readonly string[];
}

const KEPT_FIELDS = ["labels", "annotations", "ownerReferences", "finalizers"];

/**
 * Go renders non-string values (owner reference lists, finalizer lists) in its own syntax in a
 * cause message; those messages are compared up to the value.
 */
function causeKey(c: { field?: string; reason?: string; message?: string }): string {
  const message = c.message ?? "";
  const stable = /Invalid value: (\[\]|v1\.|\[\]v1\.|map\[|\{)/.test(message)
    ? message.replace(/Invalid value: .*?: /, "Invalid value: <go value>: ")
    : message;
  return `${c.field ?? ""} | ${c.reason ?? ""} | ${stable}`;
}

/**
 * The answer to a case that sent `sent` as metadata. Of a created object only the maps and lists the
 * case sent are looked at: kinds add their own (protection finalizers, template labels), which is
 * not what the case tests. A name generated from `generateName` reads `<generated>`.
 */
// biome-ignore lint/suspicious/noExplicitAny: answers are arbitrary JSON.
export function summarise(code: number, body: any, sent: Record<string, unknown>): Answer {
  if (code >= 200 && code < 300) {
    const meta = body?.metadata ?? {};
    const fields = KEPT_FIELDS.filter((f) => f in sent);
    return { code, kept: fields.filter((f) => meta[f] !== undefined && meta[f] !== null) };
  }
  const generated =
    typeof sent.generateName === "string" && sent.generateName !== ""
      ? // Both servers cut the prefix to 58 characters before adding 5 random ones.
        new RegExp(`${sent.generateName.slice(0, 58).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[a-z0-9]{5}`, "g")
      : undefined;
  const causes = (body?.details?.causes ?? [])
    .map(causeKey)
    .map((k: string) => (generated ? k.replace(generated, "<generated>") : k))
    .sort();
  return { code, reason: body?.reason, causes };
}

export function sameAnswer(a: Answer, b: Answer): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface AcceptedDifference {
  readonly id: string;
  readonly divergence: string;
  readonly matches: (caseId: string) => boolean;
}

const fence = /^```yaml differential-accepted\n([\s\S]*?)^```$/m;

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}

export async function loadAccepted(path: string): Promise<AcceptedDifference[]> {
  const block = fence.exec(await readFile(path, "utf8"));
  if (!block) throw new Error(`${path} has no "\`\`\`yaml differential-accepted" block`);
  const parsed: unknown = YAML.parse(block[1] ?? "") ?? [];
  if (!Array.isArray(parsed)) throw new Error(`${path}: the differential-accepted block is not a list`);
  return parsed.map((entry: unknown, i) => {
    const { id, divergence } = (entry ?? {}) as { id?: unknown; divergence?: unknown };
    if (typeof id !== "string" || typeof divergence !== "string" || id === "" || divergence === "")
      throw new Error(`${path}: differential-accepted entry ${i} needs string fields id and divergence`);
    const re = globToRegExp(id);
    return { id, divergence, matches: (caseId: string) => re.test(caseId) };
  });
}
