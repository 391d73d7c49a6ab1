/**
 * Conversion between the versions of a custom resource, hub and spoke: one version (the hub) is
 * the one every other version (a spoke) converts to and from, so n versions need 2(n-1) functions
 * instead of n(n-1). A ConversionReview carries many objects (a list is converted in one review);
 * the answer holds them all, in order, or none with a Failure naming the object that failed.
 *
 * The API server refuses an answer whose objects changed anything in metadata but labels and
 * annotations, or lack the desired apiVersion or the kind; the runtime sets those itself, so a
 * converter only moves fields.
 */
import type { CustomResourceDefinitionOf, CustomResourceOf, NoInferFrom } from "@kubesdk/client";
import { runWithDeadline } from "./deadline.js";
import type { ConversionReviewRequest, ConversionReviewResponse } from "./review-types.js";

type VersionOf<D extends CustomResourceDefinitionOf> = keyof D["versions"] & string;

/** An object as a converter returns it: any apiVersion (the runtime sets the desired one). */
export type Converted<T> = Omit<T, "apiVersion"> & { apiVersion?: string };

/** The two functions of one spoke version. */
export interface Spoke<Hub, Version> {
  toHub(object: Version): Converted<Hub>;
  fromHub(object: Hub): Converted<Version>;
}

/** Hub and spokes of a definition: every version but the hub needs its spoke. */
export interface HubAndSpokes<D extends CustomResourceDefinitionOf, H extends VersionOf<D>> {
  readonly hub: H;
  readonly spokes: {
    readonly [V in Exclude<VersionOf<D>, NoInferFrom<H>>]: Spoke<
      CustomResourceOf<D, H>,
      CustomResourceOf<D, V>
    >;
  };
}

/** What the runtime keeps per custom resource (group and kind). */
export interface ConverterEntry {
  readonly group: string;
  readonly kind: string;
  readonly hub: string;
  readonly spokes: Readonly<Record<string, Spoke<unknown, unknown>>>;
}

interface Meta {
  name?: string;
  namespace?: string;
  labels?: unknown;
  annotations?: unknown;
}
type Obj = { apiVersion?: string; kind?: string; metadata?: Meta } & Record<string, unknown>;

const versionIn = (apiVersion: string | undefined): string => apiVersion?.split("/")[1] ?? "";

function convertOne(entry: ConverterEntry, object: Obj, desired: string): Obj {
  const from = versionIn(object.apiVersion);
  const to = versionIn(desired);
  const spoke = (v: string) => {
    const s = entry.spokes[v];
    if (s === undefined) throw new Error(`${entry.kind} has no conversion for version "${v}"`);
    return s;
  };
  const copy = structuredClone(object);
  const hub = from === entry.hub ? copy : (spoke(from).toHub(copy) as Obj);
  const out = (to === entry.hub ? hub : spoke(to).fromHub(hub)) as Obj;
  // Keep identity and metadata as sent; only labels and annotations may change.
  const metadata: Meta = { ...object.metadata };
  if (out.metadata?.labels !== undefined) metadata.labels = out.metadata.labels;
  if (out.metadata?.annotations !== undefined) metadata.annotations = out.metadata.annotations;
  return { ...out, apiVersion: desired, kind: object.kind, metadata } as Obj;
}

function describe(object: Obj): string {
  const m = object.metadata;
  return `${object.kind ?? "object"} ${m?.namespace ? `${m.namespace}/` : ""}${m?.name ?? "(unnamed)"}`;
}

function convertAll(
  request: ConversionReviewRequest,
  entries: ReadonlyMap<string, ConverterEntry>,
): unknown[] {
  const group = request.desiredAPIVersion.split("/")[0] ?? "";
  return request.objects.map((raw) => {
    const object = raw as Obj;
    const entry = entries.get(`${object.kind}.${group}`);
    if (entry === undefined) throw new Error(`no converter for ${object.kind}.${group}`);
    try {
      return convertOne(entry, object, request.desiredAPIVersion);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(
        `converting ${describe(object)} from ${object.apiVersion} to ${request.desiredAPIVersion}: ${reason}`,
      );
    }
  });
}

export function converterEntry<D extends CustomResourceDefinitionOf, H extends VersionOf<D>>(
  definition: D,
  converter: HubAndSpokes<NoInferFrom<D>, H>,
): ConverterEntry {
  const spokes = converter.spokes as unknown as Record<string, Spoke<unknown, unknown>>;
  for (const v of Object.keys(definition.versions))
    if (v !== converter.hub && spokes[v] === undefined)
      throw new Error(`${definition.kind}: version ${v} has no spoke to the hub ${converter.hub}`);
  return { group: definition.group, kind: definition.kind, hub: converter.hub, spokes };
}

export async function answerConversion(
  request: ConversionReviewRequest,
  entries: ReadonlyMap<string, ConverterEntry>,
  deadlineMs: number,
): Promise<ConversionReviewResponse> {
  const outcome = await runWithDeadline(deadlineMs, () => convertAll(request, entries));
  if (outcome.kind === "value")
    return { uid: request.uid, convertedObjects: outcome.value, result: { status: "Success" } };
  const message =
    outcome.kind === "timeout"
      ? `conversion webhook did not answer within ${outcome.ms} ms`
      : outcome.error instanceof Error
        ? outcome.error.message
        : String(outcome.error);
  return { uid: request.uid, convertedObjects: [], result: { status: "Failure", message } };
}
