// @kubesdk/models/kinds: the model types by kind name (`Pod`, `Deployment`, …) and nothing else, so
// the `kubesdk` facade can put every kind at its root without the schema and wire internals.
// Which version a bare name means: docs/model-types.md.

export type * from "./generated/kind-names.js";
export type { KubernetesList, KubernetesObject } from "./object.js";
