/** The CustomResourceDefinition object of a {@link defineCustomResource} definition. */
import type { apiextensionsV1 } from "@kubesdk/models";
import type {
  CustomResourceDefinitionManifest,
  CustomResourceOptions,
  CustomResourceVersions,
  ResourceNames,
  Subresources,
} from "./options.js";
import type { JsonSchemaProps } from "./structural.js";

type Version = apiextensionsV1.CustomResourceDefinitionVersion;

export function buildManifest(
  options: CustomResourceOptions<string, string, CustomResourceVersions>,
  names: ResourceNames,
  schemas: ReadonlyMap<string, JsonSchemaProps>,
): CustomResourceDefinitionManifest {
  const versions = Object.entries(options.versions).map(([name, v]): Version => {
    const subresources = subresourcesOf(v.subresources ?? options.subresources);
    return {
      name,
      served: v.served ?? true,
      storage: v.storage === true,
      ...(v.deprecated !== undefined ? { deprecated: v.deprecated } : {}),
      ...(v.deprecationWarning !== undefined ? { deprecationWarning: v.deprecationWarning } : {}),
      schema: { openAPIV3Schema: structuredClone(schemas.get(name) as JsonSchemaProps) },
      ...(subresources ? { subresources } : {}),
      ...(v.printerColumns?.length
        ? { additionalPrinterColumns: v.printerColumns.map((c) => ({ ...c })) }
        : {}),
      ...(v.selectableFields?.length
        ? { selectableFields: v.selectableFields.map((jsonPath) => ({ jsonPath })) }
        : {}),
    };
  });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${names.plural}.${options.group}` },
    spec: {
      group: options.group,
      scope: options.scope,
      names: {
        kind: options.kind,
        plural: names.plural,
        singular: names.singular,
        listKind: names.listKind,
        ...(options.shortNames?.length ? { shortNames: [...options.shortNames] } : {}),
        ...(options.categories?.length ? { categories: [...options.categories] } : {}),
      },
      versions,
    },
  };
}

function subresourcesOf(s: Subresources | undefined): apiextensionsV1.CustomResourceSubresources | undefined {
  if (!s || (!s.status && !s.scale)) return undefined;
  return { ...(s.status ? { status: {} } : {}), ...(s.scale ? { scale: { ...s.scale } } : {}) };
}
