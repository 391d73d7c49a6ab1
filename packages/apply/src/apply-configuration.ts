/**
 * Typed apply configurations: plain objects holding only the fields a
 * manager wants to own. Every field is optional at every depth except the
 * object's identity (apiVersion, kind, metadata.name), which server-side
 * apply needs. Works for every generated kind and for custom resource types.
 */
import type { metaV1 } from "@kubesdk/models";

/** Every property optional, recursively (arrays of partial items). */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? readonly DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** The shape any Kubernetes object has; custom resource types only need to satisfy this. */
export interface ObjectWithTypeMeta {
  apiVersion?: string;
  kind?: string;
  metadata?: metaV1.ObjectMeta;
}

/**
 * What `apply` sends for an object of type T: a deep-partial T whose apiVersion, kind and
 * metadata.name are required.
 */
export type ApplyConfiguration<T extends ObjectWithTypeMeta> = DeepPartial<
  Omit<T, "apiVersion" | "kind" | "metadata">
> & {
  apiVersion: NonNullable<T["apiVersion"]>;
  kind: NonNullable<T["kind"]>;
  metadata: DeepPartial<metaV1.ObjectMeta> & { name: string };
};
