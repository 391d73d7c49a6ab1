/** What `defineCustomResource` is given: names, scope, versions with their schemas, subresources. */
import type { apiextensionsV1 } from "@kubesdk/models";
import type { TSchema } from "typebox";

/** A column of `kubectl get` (additionalPrinterColumns). */
export interface PrinterColumn {
  readonly name: string;
  readonly type: "integer" | "number" | "string" | "boolean" | "date";
  /** JSONPath into the object, e.g. ".spec.replicas". */
  readonly jsonPath: string;
  readonly description?: string;
  readonly format?: string;
  /** 0 (the default) shows in `kubectl get`; higher only with `-o wide`. */
  readonly priority?: number;
}

/** The scale subresource: where the replica counts and the label selector are in the object. */
export interface ScaleSubresource {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

export interface Subresources {
  /** Serve `/status`: the main resource then ignores status changes, `/status` everything else. */
  readonly status?: boolean;
  readonly scale?: ScaleSubresource;
}

/** One version of a custom resource. */
export interface CustomResourceVersion<S extends TSchema = TSchema> {
  /**
   * The object's fields besides apiVersion, kind and metadata (spec, status, ...), as a TypeBox
   * object type. Its descriptions, defaults, formats and `x-kubernetes-*` options go into the CRD.
   */
  readonly schema: S;
  /** Served by the API (default true). */
  readonly served?: boolean;
  /** The version objects are stored in: exactly one version has `storage: true`. */
  readonly storage?: boolean;
  readonly deprecated?: boolean;
  readonly deprecationWarning?: string;
  readonly printerColumns?: readonly PrinterColumn[];
  /** Subresources of this version (default: the definition's `subresources`). */
  readonly subresources?: Subresources;
  /** JSONPaths of fields usable in field selectors, e.g. ".spec.color". */
  readonly selectableFields?: readonly string[];
}

export type CustomResourceVersions = { readonly [version: string]: CustomResourceVersion };

export interface CustomResourceOptions<G extends string, K extends string, V extends CustomResourceVersions> {
  readonly group: G;
  readonly kind: K;
  /** URL name (default: the kind in lower case plus "s"). */
  readonly plural?: string;
  /** Default: the kind in lower case. */
  readonly singular?: string;
  /** Default: the kind plus "List". */
  readonly listKind?: string;
  readonly scope: "Namespaced" | "Cluster";
  readonly versions: V;
  readonly shortNames?: readonly string[];
  /** Groups such as "all" that `kubectl get <category>` lists. */
  readonly categories?: readonly string[];
  /** Subresources of every version that names none itself. */
  readonly subresources?: Subresources;
}

export interface ResourceNames {
  readonly plural: string;
  readonly singular: string;
  readonly listKind: string;
}

/** A CRD object as `manifest()` builds it: ready to create or apply. */
export type CustomResourceDefinitionManifest = apiextensionsV1.CustomResourceDefinition & {
  apiVersion: "apiextensions.k8s.io/v1";
  kind: "CustomResourceDefinition";
  metadata: { name: string };
};
