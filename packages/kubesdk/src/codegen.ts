// kubesdk/codegen: TypeScript types from a cluster's or a file's OpenAPI v3 documents, what
// `kubesdk gen` runs.
export { type GenerateOptions, generateTypes } from "./gen/generate.js";
