/**
 * ObjectMeta validation on create, as apimachinery's ValidateObjectMeta does it: generateName and
 * name under the kind's name format, labels, annotations, owner references and finalizers, with
 * upstream's messages and field paths, one function per part, in upstream's order.
 */
import type { FieldError } from "../api/status.js";
import { bytesOf, dns1123SubdomainProblems, type NameFormat, regexError } from "./name-formats.js";

const KEY_CHARS = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const KEY_RE = new RegExp(`^${KEY_CHARS}$`);
const VALUE_RE = new RegExp(`^(${KEY_CHARS})?$`);
const KEY_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const TOTAL_ANNOTATION_BYTES = 256 * 1024;
/** The finalizers of the core API that need no domain prefix. */
const STANDARD_FINALIZERS = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

/** The declarative formats count bytes where the older ones say characters. */
const inBytes = (msgs: string[]) => msgs.map((m) => m.replace(/ characters$/, " bytes"));

/** apimachinery's qualified name (label key): an optional DNS subdomain prefix and a name part. */
export function qualifiedNameProblems(value: string): string[] {
  const parts = value.split("/");
  if (parts.length > 2)
    return [
      `a valid label key ${regexError(KEY_MSG, KEY_CHARS, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  const out: string[] = [];
  const name = parts.length === 2 ? (parts[1] as string) : (parts[0] as string);
  if (parts.length === 2) {
    const prefix = parts[0] as string;
    if (prefix === "") out.push("prefix part must be non-empty");
    else out.push(...inBytes(dns1123SubdomainProblems(prefix)).map((m) => `prefix part ${m}`));
  }
  if (name === "") out.push("name part must be non-empty");
  else if (bytesOf(name) > 63) out.push("name part must be no more than 63 bytes");
  if (!KEY_RE.test(name))
    out.push(`name part ${regexError(KEY_MSG, KEY_CHARS, "MyName", "my.name", "123-abc")}`);
  return out;
}

export function labelValueProblems(value: string): string[] {
  const out: string[] = [];
  if (bytesOf(value) > 63) out.push("must be no more than 63 bytes");
  if (!VALUE_RE.test(value))
    out.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        `(${KEY_CHARS})?`,
        "MyValue",
        "my_value",
        "12345",
      ),
    );
  return out;
}

const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  value,
  detail,
});
const required = (field: string, detail: string): FieldError => ({
  type: "FieldValueRequired",
  field,
  detail,
});

type Meta = Record<string, unknown>;
const stringMap = (v: unknown): [string, string][] =>
  typeof v === "object" && v !== null && !Array.isArray(v)
    ? Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, typeof x === "string" ? x : ""])
    : [];
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface MetaCheckOptions {
  readonly nameFormat: NameFormat;
  readonly checksGenerateName: boolean;
  /** The core API's rule that a finalizer without a domain is one of the standard ones. */
  readonly kubeFinalizers: boolean;
}

function nameErrors(meta: Meta, o: MetaCheckOptions): FieldError[] {
  const out: FieldError[] = [];
  const generateName = typeof meta.generateName === "string" ? meta.generateName : "";
  if (generateName !== "" && o.checksGenerateName)
    for (const msg of o.nameFormat(generateName, true))
      out.push(invalid("metadata.generateName", generateName, msg));
  const name = typeof meta.name === "string" ? meta.name : "";
  if (name === "") out.push(required("metadata.name", "name or generateName is required"));
  else for (const msg of o.nameFormat(name, false)) out.push(invalid("metadata.name", name, msg));
  return out;
}

/**
 * A label key or value these patterns accept is ASCII, so its length is its bytes: at most 63 of them
 * and the problem lists are empty. Most labels are such; they skip building those lists.
 */
const plainLabelKey = (k: string) => k.length <= 63 && KEY_RE.test(k);
const plainLabelValue = (v: string) => v.length <= 63 && VALUE_RE.test(v);

function labelErrors(meta: Meta): FieldError[] {
  const out: FieldError[] = [];
  for (const [k, v] of stringMap(meta.labels)) {
    if (plainLabelKey(k) && plainLabelValue(v)) continue;
    for (const msg of qualifiedNameProblems(k)) out.push(invalid("metadata.labels", k, msg));
    for (const msg of labelValueProblems(v)) out.push(invalid("metadata.labels", v, msg));
  }
  return out;
}

/** ValidateAnnotations: keys are qualified names (any case), at most 256 KiB in all, reported at `field`. */
export function annotationMapErrors(annotations: unknown, field: string): FieldError[] {
  const out: FieldError[] = [];
  let total = 0;
  for (const [k, v] of stringMap(annotations)) {
    for (const msg of qualifiedNameProblems(k.toLowerCase())) out.push(invalid(field, k, msg));
    total += bytesOf(k) + bytesOf(v);
  }
  if (total > TOTAL_ANNOTATION_BYTES)
    out.push({
      type: "FieldValueTooLong",
      field,
      detail: `may not be more than ${TOTAL_ANNOTATION_BYTES} bytes`,
    });
  return out;
}

const annotationErrors = (meta: Meta): FieldError[] =>
  annotationMapErrors(meta.annotations, "metadata.annotations");

/** apiVersion parses as `<group>/<version>` or `<version>`, with a version. */
function validApiVersion(v: string): boolean {
  const parts = v.split("/");
  if (parts.length === 1) return true;
  return parts.length === 2 && parts[1] !== "";
}

function ownerReferenceErrors(meta: Meta): FieldError[] {
  const out: FieldError[] = [];
  const refs = list(meta.ownerReferences);
  let firstController = "";
  refs.forEach((raw, i) => {
    const ref = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const at = `metadata.ownerReferences[${i}]`;
    const str = (k: string) => (typeof ref[k] === "string" ? (ref[k] as string) : "");
    if (str("apiVersion") === "") out.push(required(`${at}.apiVersion`, "must not be empty"));
    else if (!validApiVersion(str("apiVersion")))
      out.push(invalid(`${at}.apiVersion`, str("apiVersion"), "must be <group>/<version> or <version>"));
    for (const k of ["kind", "name", "uid"])
      if (str(k) === "") out.push(required(`${at}.${k}`, "must not be empty"));
    if (ref.controller !== true) return;
    const current = `${str("kind")}/${str("name")}`;
    if (firstController === "") firstController = current;
    else
      out.push(
        invalid(
          "metadata.ownerReferences",
          refs,
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
        ),
      );
  });
  return out;
}

function finalizerErrors(meta: Meta, o: MetaCheckOptions): FieldError[] {
  const out: FieldError[] = [];
  const finalizers = list(meta.finalizers).map((f) => (typeof f === "string" ? f : ""));
  for (const f of finalizers)
    for (const msg of qualifiedNameProblems(f)) out.push(invalid("metadata.finalizers", f, msg));
  if (finalizers.includes("orphan") && finalizers.includes("foregroundDeletion"))
    out.push(
      invalid(
        "metadata.finalizers",
        finalizers,
        "finalizer orphan and foregroundDeletion cannot be both set",
      ),
    );
  if (o.kubeFinalizers)
    finalizers.forEach((f, i) => {
      if (!f.includes("/") && !STANDARD_FINALIZERS.has(f))
        out.push(
          invalid(
            `metadata.finalizers[${i}]`,
            f,
            "name is neither a standard finalizer name nor is it fully qualified",
          ),
        );
    });
  return out;
}

/** Only the name and generateName rows of validateObjectMeta. */
export function validateObjectMetaNames(meta: Meta, options: MetaCheckOptions): FieldError[] {
  return nameErrors(meta, options);
}

/**
 * The checks in upstream's order. A part the metadata does not have finds nothing: it is not walked
 * (plain calls, not a table of checks, since every write runs this while the JIT is still cold).
 */
export function validateObjectMeta(meta: Meta, options: MetaCheckOptions): FieldError[] {
  const out = nameErrors(meta, options);
  if (meta.labels !== undefined) out.push(...labelErrors(meta));
  if (meta.annotations !== undefined) out.push(...annotationErrors(meta));
  if (meta.ownerReferences !== undefined) out.push(...ownerReferenceErrors(meta));
  if (meta.finalizers !== undefined) out.push(...finalizerErrors(meta, options));
  return out;
}
