/**
 * LIST: selectors, limit/continue over one snapshot, and the resourceVersion ×
 * resourceVersionMatch matrix (docs/api-semantics.md §3), with upstream's errors. The stages are
 * listed at `listObjects`.
 */
import { errors, type FieldError } from "../../api/status.js";
import { apiVersionOf, type ServedResource } from "../../resources/served.js";
import { CompactedError, type ListResult, type StoredObject } from "../../storage/mvcc.js";
import { type ApiResponse, type HandlerContext, listPrefix, present } from "./context.js";
import { decodeContinue, encodeContinue } from "./continue-token.js";
import { presentAll } from "./converted.js";
import { buildFilter, type ObjectFilter } from "./filter.js";
import { parseInt64Param } from "./options.js";
import { parseResourceVersion, type SignalSource, waitForRevision } from "./resource-version.js";

const EXPIRED_LIST = "The resourceVersion for the provided list is too old.";
const INCONSISTENT_CONTINUE =
  "The provided continue parameter is too old to display a consistent list result. You can start a new list " +
  "without the continue parameter, or use the continue token in this response to retrieve the remainder of " +
  "the results. Continuing with the provided token results in an inconsistent list - objects that were " +
  "created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

function invalidListOptions(errs: FieldError[]): never {
  throw errors.invalid("ListOptions", "meta.k8s.io", "", errs);
}

/** Validates the list-only rules of ListOptions (the watch rules live with watch). */
function validateListOptions(q: URLSearchParams): void {
  const errs: FieldError[] = [];
  const rv = q.get("resourceVersion") ?? "";
  const match = q.get("resourceVersionMatch") ?? "";
  if (match !== "") {
    if (rv === "")
      errs.push({
        type: "FieldValueForbidden",
        field: "resourceVersionMatch",
        detail: "resourceVersionMatch is forbidden unless resourceVersion is provided",
      });
    if ((q.get("continue") ?? "") !== "")
      errs.push({
        type: "FieldValueForbidden",
        field: "resourceVersionMatch",
        detail: "resourceVersionMatch is forbidden when continue is provided",
      });
    if (match !== "Exact" && match !== "NotOlderThan")
      errs.push({
        type: "FieldValueNotSupported",
        field: "resourceVersionMatch",
        value: match,
        detail: 'supported values: "Exact", "NotOlderThan", ""',
      });
    if (match === "Exact" && rv === "0")
      errs.push({
        type: "FieldValueForbidden",
        field: "resourceVersionMatch",
        detail: 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      });
  }
  if (q.has("sendInitialEvents"))
    errs.push({
      type: "FieldValueForbidden",
      field: "sendInitialEvents",
      detail: "sendInitialEvents is forbidden for list",
    });
  if (errs.length > 0) invalidListOptions(errs);
}

export function parseLimit(q: URLSearchParams): number {
  const raw = q.get("limit");
  // An int64 (strconv's 400 otherwise, the empty value too); zero or negative means no limit.
  return raw === null ? 0 : Math.max(parseInt64Param(raw), 0);
}

/** Where a list reads: at which revision (undefined: the latest) and from which key. */
interface ReadPoint {
  readonly atRev?: number;
  readonly startKey?: string;
}

/** A continued list reads on at the token's revision (410 with a fresh token once it is compacted). */
function continuePoint(
  ctx: HandlerContext,
  q: URLSearchParams,
  prefix: string,
  continueParam: string,
): ReadPoint {
  const rvParam = q.get("resourceVersion") ?? "";
  if (rvParam !== "" && rvParam !== "0")
    throw errors.badRequest("specifying resource version is not allowed when using continue");
  const token = decodeContinue(continueParam);
  const startKey = prefix + token.start;
  if (token.rv <= 0) return { startKey };
  if (token.rv < ctx.store.compactedRevision) {
    const fresh = encodeContinue({ rv: -1, start: token.start });
    throw errors.expired(INCONSISTENT_CONTINUE, { continue: fresh });
  }
  return { atRev: token.rv, startKey };
}

/** A first page: not older than resourceVersion, or exactly at it (resourceVersionMatch=Exact, or a limit). */
async function firstPagePoint(
  ctx: HandlerContext,
  q: URLSearchParams,
  limit: number,
  signal: SignalSource | undefined,
): Promise<ReadPoint> {
  const rv = parseResourceVersion(q.get("resourceVersion") ?? "");
  if (rv === undefined || rv <= 0) return {};
  const match = q.get("resourceVersionMatch") ?? "";
  const exact = match === "Exact" || (match === "" && limit > 0);
  await waitForRevision(ctx, rv, signal);
  if (!exact) return {};
  if (rv < ctx.store.compactedRevision) throw errors.expired(EXPIRED_LIST);
  return { atRev: rv };
}

/**
 * LIST, in stages (upstream: endpoints/handlers/get.go's ListResource, then the generic registry's
 * List):
 *
 * 1. decode: ListOptions checked (the list-only rules), selectors made a filter, limit and continue;
 * 2. read point: a continue token's revision and key (410 once compacted), or the first page's
 *    revision from resourceVersion × resourceVersionMatch (waiting for one not reached yet);
 * 3. storage: one page of the snapshot at that point, filtered;
 * 4. present: the list's metadata (resourceVersion, continue, remainingItemCount) and the items in
 *    the requested version; the endpoint then encodes the list.
 */
export async function listObjects(
  ctx: HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  q: URLSearchParams,
  signal?: SignalSource,
): Promise<ApiResponse> {
  const options = decodeListOptions(r, namespace, q);
  const point = await readPointOf(ctx, options, signal);
  const page = readPage(ctx, r, options, point);
  return { code: 200, body: await presentList(r, options, page) };
}

/** What a list request asks for, decoded and checked. */
interface DecodedList {
  readonly query: URLSearchParams;
  readonly filter: ObjectFilter;
  readonly limit: number;
  /** The continue token, "" for a first page. */
  readonly continueToken: string;
  /** The store keys of the namespace (or of all) the list covers. */
  readonly prefix: string;
}

/** Stage 1: ListOptions, with upstream's 400s and 422s. */
function decodeListOptions(
  r: ServedResource,
  namespace: string | undefined,
  q: URLSearchParams,
): DecodedList {
  validateListOptions(q);
  return {
    query: q,
    filter: buildFilter(r, q),
    limit: parseLimit(q),
    continueToken: q.get("continue") ?? "",
    prefix: listPrefix(r, namespace),
  };
}

/** Stage 2: where the page is read. */
function readPointOf(
  ctx: HandlerContext,
  o: DecodedList,
  signal: SignalSource | undefined,
): ReadPoint | Promise<ReadPoint> {
  if (o.continueToken !== "") return continuePoint(ctx, o.query, o.prefix, o.continueToken);
  return firstPagePoint(ctx, o.query, o.limit, signal);
}

/** Stage 3: one page from the store; a revision compacted meanwhile is upstream's 410. */
function readPage(ctx: HandlerContext, r: ServedResource, o: DecodedList, point: ReadPoint): ListResult {
  try {
    return ctx.store.list(r.bucket, {
      prefix: o.prefix,
      ...point,
      limit: o.limit,
      filter: o.filter.empty ? undefined : o.filter.matches,
      countRemaining: o.filter.empty,
    } as Parameters<typeof ctx.store.list>[1]);
  } catch (e) {
    if (e instanceof CompactedError) throw errors.expired(EXPIRED_LIST);
    throw e;
  }
}

/** Stage 4: the list body, its items in the requested version. */
async function presentList(
  r: ServedResource,
  o: DecodedList,
  page: ListResult,
): Promise<Record<string, unknown>> {
  const metadata: Record<string, unknown> = { resourceVersion: String(page.rev) };
  if (page.nextKey !== undefined) {
    metadata.continue = encodeContinue({ rv: page.rev, start: page.nextKey.slice(o.prefix.length) });
    if (page.remaining !== undefined) metadata.remainingItemCount = page.remaining;
  }
  // Built-in (typed) lists carry no kind/apiVersion per item; custom resources (unstructured) do.
  const items = r.custom
    ? await presentAll(r, page.items)
    : r.convert
      ? page.items.map((o) => withoutTypeMeta(present(r, o)))
      : typedItems(page);
  return { kind: r.listKind, apiVersion: apiVersionOf(r), metadata, items };
}

/**
 * Whole lists of one store snapshot share one frozen items array, made once: the encoders keep
 * their ranges of each item's cached bytes per frozen array (http/list-item-parts.ts), so a list of
 * an unchanged collection does no work per item. Kept as long as the store keeps the snapshot.
 */
const snapshotItems = new WeakMap<object, readonly StoredObject[]>();

function typedItems(page: ListResult): readonly StoredObject[] {
  if (page.snapshot === undefined) return page.items.map(withoutTypeMeta);
  let items = snapshotItems.get(page.snapshot);
  if (items === undefined) {
    items = Object.freeze(page.items.map(withoutTypeMeta));
    snapshotItems.set(page.snapshot, items);
  }
  return items;
}

/**
 * A stored object's list item (no kind/apiVersion), made once per stored object: stored objects
 * are immutable, so every list shows the same item, and response encoding can reuse what it made
 * of it the last time (http/list-encode.ts). A memo keyed by the objects themselves: it holds
 * nothing a server does not still hold.
 */
const listItems = new WeakMap<StoredObject, StoredObject>();

function withoutTypeMeta(o: StoredObject): StoredObject {
  const known = listItems.get(o);
  if (known !== undefined) return known;
  const { apiVersion: _a, kind: _k, ...rest } = o as StoredObject & { apiVersion?: unknown; kind?: unknown };
  listItems.set(o, rest as StoredObject);
  return rest as StoredObject;
}
