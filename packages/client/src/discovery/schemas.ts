/** The shapes of the discovery documents, checked before they are read (see io/response-shape.ts). */
import { z } from "zod";

const strings = z.array(z.string());

/** One entry of an APIResourceList; `<plural>/<sub>` entries are subresources. */
export const apiResourceSchema = z.looseObject({
  name: z.string().min(1),
  kind: z.string().min(1),
  singularName: z.string().optional(),
  namespaced: z.boolean().optional(),
  group: z.string().optional(),
  version: z.string().optional(),
  verbs: strings.optional(),
  shortNames: strings.optional(),
  categories: strings.optional(),
});

/** `/api/v1`, `/apis/<group>/<version>`. */
export const apiResourceListSchema = z.looseObject({ resources: z.array(apiResourceSchema) });

/** `/api`. */
export const apiVersionsSchema = z.looseObject({ versions: strings });

/** `/apis`. */
export const apiGroupListSchema = z.looseObject({
  groups: z.array(
    z.looseObject({
      name: z.string(),
      versions: z.array(z.looseObject({ version: z.string().min(1) })),
      preferredVersion: z.looseObject({ version: z.string() }).optional(),
    }),
  ),
});

export type ApiResourceEntry = z.output<typeof apiResourceSchema>;
