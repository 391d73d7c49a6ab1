/**
 * ConversionReview as the API server sends and checks it, in the first version of the CRD's
 * `conversionReviewVersions` it knows (v1 or v1beta1; v1beta1 answers skip the kind and uid checks): the request for
 * the objects not yet in the desired version, and the checks of the webhook's answer — the kind and
 * uid of the review, a Success result, one converted object per object sent, each of the desired
 * apiVersion and the same kind, name, namespace and uid. The converted object keeps the original's
 * metadata but for labels and annotations, which the webhook may change (valid ones only).
 */
import { labelValueProblems, qualifiedNameProblems } from "../validation/object-meta.js";
import { isObject } from "./json-schema.js";

export type Obj = Record<string, unknown>;

export type ReviewVersion = "v1" | "v1beta1";

/** The review version to send: the first of the CRD's list that the server knows. */
export function reviewVersionOf(versions: unknown): ReviewVersion {
  const list = Array.isArray(versions) ? versions : [];
  return list.find((v): v is ReviewVersion => v === "v1" || v === "v1beta1") ?? "v1";
}

export interface ConversionRequest {
  readonly kind: "ConversionReview";
  readonly apiVersion: `apiextensions.k8s.io/${ReviewVersion}`;
  readonly request: { readonly uid: string; readonly desiredAPIVersion: string; readonly objects: Obj[] };
}

/** A webhook answer the server refuses; the message follows "conversion webhook for <gvk> " upstream. */
export class ConversionFailed extends Error {}

export function reviewRequest(
  version: ReviewVersion,
  uid: string,
  desiredAPIVersion: string,
  objects: Obj[],
): ConversionRequest {
  return {
    kind: "ConversionReview",
    apiVersion: `apiextensions.k8s.io/${version}`,
    request: { uid, desiredAPIVersion, objects },
  };
}

/** The converted objects of a webhook's answer, after the review-level checks. */
export function convertedObjects(version: ReviewVersion, uid: string, answer: unknown): unknown[] {
  const review = isObject(answer) ? answer : {};
  const v1 = version === "v1";
  if ((v1 && review.apiVersion !== "apiextensions.k8s.io/v1") || review.kind !== "ConversionReview") {
    const apiVersion = typeof review.apiVersion === "string" ? review.apiVersion : "";
    const gv = apiVersion.includes("/") ? apiVersion : `/${apiVersion}`;
    throw new ConversionFailed(
      `failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${gv}, Kind=${str(review.kind)}`,
    );
  }
  const response = review.response;
  if (!isObject(response)) throw new ConversionFailed("failed: no response provided");
  const got = typeof response.uid === "string" ? response.uid : "";
  if (v1 && got !== uid) throw new ConversionFailed(`failed: expected response.uid="${uid}", got "${got}"`);
  const result = isObject(response.result) ? response.result : {};
  if (result.status !== "Success") {
    const message = typeof result.message === "string" ? result.message : "";
    throw new ConversionFailed(
      `failed: ${message !== "" ? message : `response.result.status was '${String(result.status ?? "")}', not 'Success'`}`,
    );
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

const metaOf = (o: Obj): Obj => (isObject(o.metadata) ? o.metadata : {});
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Where in the answer an object was, as upstream's messages say it (a list counts from 1). */
export interface Position {
  readonly single: boolean;
  readonly index: number;
}

function invalid(at: Position, what: "object" | "type" | "metadata", detail: string): ConversionFailed {
  if (at.single) {
    const where = {
      object: "invalid object",
      type: "invalid object at index 0",
      metadata: "invalid metadata",
    }[what];
    return new ConversionFailed(`returned ${where}: ${detail}`);
  }
  const n = at.index + 1;
  const where =
    what === "metadata"
      ? `invalid metadata in object at index ${n}`
      : `invalid converted object at index ${n}`;
  return new ConversionFailed(`returned ${where}: ${detail}`);
}

/** Checks one converted object against its original; returns it with the original's metadata restored. */
export function checkConverted(
  original: Obj,
  converted: unknown,
  desiredAPIVersion: string,
  at: Position,
): Obj {
  if (!isObject(converted)) throw invalid(at, "type", "not an object");
  const got = str(converted.apiVersion);
  if (got !== desiredAPIVersion)
    throw invalid(at, "type", `invalid groupVersion (expected ${desiredAPIVersion}, received ${got})`);
  if (str(converted.kind) !== str(original.kind))
    throw invalid(
      at,
      "type",
      `invalid kind (expected ${str(original.kind)}, received ${str(converted.kind)})`,
    );
  const [a, b] = [metaOf(original), metaOf(converted)];
  for (const [field, label] of [
    ["name", "name"],
    ["namespace", "namespace"],
    ["uid", "UID"],
  ] as const)
    if (str(a[field]) !== str(b[field]))
      throw invalid(at, "object", `must have the same ${label}: ${str(a[field])} != ${str(b[field])}`);
  if (!isObject(converted.metadata)) throw invalid(at, "metadata", "missing metadata in converted object");
  return { ...converted, metadata: restoredMetadata(a, b, at) };
}

/** The original metadata with the webhook's labels and annotations (upstream keeps nothing else it sends). */
function restoredMetadata(original: Obj, answered: Obj, at: Position): Obj {
  const out: Obj = structuredClone(original);
  for (const field of ["labels", "annotations"] as const) {
    const value = answered[field];
    if (value === undefined || value === null) {
      delete out[field];
      continue;
    }
    if (!isObject(value)) throw invalid(at, "metadata", `invalid metadata.${field} in converted object`);
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== "string")
        throw invalid(at, "metadata", `metadata.${field}[${k}] must be a string in converted object`);
      if (field === "labels") {
        const problems = [...qualifiedNameProblems(k), ...labelValueProblems(v)];
        if (problems.length > 0)
          throw invalid(at, "metadata", `metadata.labels: Invalid value: "${k}": ${problems.join("; ")}`);
      }
    }
    out[field] = { ...value };
  }
  return out;
}
