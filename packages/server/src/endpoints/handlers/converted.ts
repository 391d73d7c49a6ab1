/**
 * Custom resources between their versions: stored objects presented in the requested version and
 * written objects brought to the storage version. With conversion None (and for built-in kinds)
 * every function answers at once; with a conversion webhook an object of another version is a
 * promise, so a request waits for the webhook without holding up anyone else. A failed conversion
 * becomes the Status kube-apiserver answers: a read is a storage error naming the object, a write
 * the webhook's error alone.
 */
import { errors, qualifiedName, type StatusError } from "../../api/status.js";
import { apiVersionOf, ConversionError, type ServedResource } from "../../resources/served.js";
import type { StoredObject } from "../../storage/mvcc.js";
import * as c from "./context.js";

export type Maybe<T> = T | Promise<T>;

/** `f` of the value, at once when the value is there. */
export function andThen<T, U>(x: Maybe<T>, f: (v: T) => U): Maybe<U> {
  return x instanceof Promise ? x.then(f) : f(x);
}

/** A promise's ConversionError as `as` words it. */
function failingAs<T>(x: Maybe<T>, as: (e: ConversionError) => StatusError): Maybe<T> {
  if (!(x instanceof Promise)) return x;
  return x.catch((e: unknown) => {
    throw e instanceof ConversionError ? as(e) : e;
  });
}

/** Where etcd keeps the object, as upstream's storage errors name it (`/registry` only in some). */
function storageKey(r: ServedResource, obj: Record<string, unknown>): string {
  const meta = c.metadataOf(obj);
  const ns = r.namespaced ? `${String(meta.namespace ?? "")}/` : "";
  return `/${r.group}/${r.resource}/${ns}${String(meta.name ?? "")}`;
}

function corrupt(r: ServedResource, e: ConversionError, prefix: string): string {
  const rv = String(c.metadataOf(e.object).resourceVersion ?? "0");
  return `StorageError: corrupt object, Code: 7, Key: ${prefix}${storageKey(r, e.object)}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${rv}: ${e.detail}`;
}

const readFailed = (r: ServedResource) => (e: ConversionError) => errors.internal(corrupt(r, e, ""));
const listFailed = (r: ServedResource) => (e: ConversionError) =>
  errors.unclassified(
    `failed to read one or more ${qualifiedName(r)} from the storage: ${corrupt(r, e, "/registry")}`,
  );

/** Stored objects as `r` presents them (a list); one webhook call for all that need one. */
export function presentAll(r: ServedResource, objs: readonly StoredObject[]): Maybe<c.KubeObject[]> {
  const conversion = r.custom?.conversion;
  if (!conversion?.byWebhook) return objs.map((o) => c.present(r, o));
  const converted = failingAs(conversion.convert(objs, apiVersionOf(r)), listFailed(r));
  return andThen(converted, (xs) => xs.map((o) => c.present(r, o as StoredObject)));
}

/** One stored object as `r` presents it. */
export function presentOne(r: ServedResource, obj: StoredObject): Maybe<c.KubeObject> {
  const conversion = r.custom?.conversion;
  if (!conversion?.byWebhook) return c.present(r, obj);
  const converted = failingAs(conversion.convert([obj], apiVersionOf(r)), readFailed(r));
  return andThen(converted, (xs) => c.present(r, xs[0] as StoredObject));
}

/** The stored object `name` as `r` presents it, if there is one. */
export function findPresented(
  ctx: c.HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
): Maybe<c.KubeObject | undefined> {
  const stored = ctx.store.get(r.bucket, c.objectKey(r, namespace, name));
  return stored ? presentOne(r, stored) : undefined;
}

/** The stored object `name` as `r` presents it, or the 404 Status. */
export function loadPresented(
  ctx: c.HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
): Maybe<c.KubeObject> {
  const stored = ctx.store.get(r.bucket, c.objectKey(r, namespace, name));
  if (!stored) throw errors.notFound(c.qualified(r), name);
  return presentOne(r, stored);
}

/** The object as its bucket keeps it: custom resources converted to the CRD's storage version. */
export function storedForm<T extends StoredObject>(r: ServedResource, obj: T): Maybe<T> {
  const conversion = r.custom?.conversion;
  const storage = c.storageApiVersion(r);
  if (!conversion?.byWebhook || storage === undefined) return c.toStored(r, obj);
  const converted = failingAs(conversion.convert([obj], storage), (e) => errors.unclassified(e.detail));
  return andThen(converted, (xs) => xs[0] as T);
}

/** Whether a write of `r` may wait for a conversion webhook between its read and its commit. */
export function convertsByWebhook(r: ServedResource): boolean {
  return r.custom?.conversion?.byWebhook === true;
}
