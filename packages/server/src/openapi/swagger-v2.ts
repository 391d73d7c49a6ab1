/**
 * The OpenAPI v2 (Swagger 2.0) document of `/openapi/v2`: every served group/version in one
 * document, made from the v3 documents (documents.ts) — components become `definitions`, a request
 * body becomes a `body` parameter, response contents become a schema with `produces`, and query and
 * path parameters carry their type inline. Custom resources are in it with each served version's
 * schema, as kube-apiserver publishes them.
 */
import type { OpenApiSchema } from "./components.js";

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const METHODS = ["get", "put", "post", "delete", "patch"];

/** Deep copy with `#/components/schemas/` references pointing at `#/definitions/`. */
function v2Refs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(v2Refs);
  if (!isJson(v)) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v))
    out[k] =
      k === "$ref" && typeof x === "string"
        ? x.replace("#/components/schemas/", "#/definitions/")
        : v2Refs(x);
  return out;
}

function v2Parameter(p: unknown): unknown {
  if (!isJson(p) || !isJson(p.schema)) return p;
  const { schema, ...rest } = p;
  return { ...rest, ...schema };
}

function firstSchema(content: unknown): { types: string[]; schema: unknown } {
  const types = isJson(content) ? Object.keys(content) : [];
  const first = types[0] !== undefined && isJson(content) ? content[types[0]] : undefined;
  return { types, schema: isJson(first) ? first.schema : undefined };
}

function v2Operation(op: Json): Json {
  const { requestBody, responses, parameters, ...rest } = op;
  const params = Array.isArray(parameters) ? parameters.map(v2Parameter) : [];
  const out: Json = { ...rest };
  if (isJson(requestBody)) {
    const { types, schema } = firstSchema(requestBody.content);
    params.unshift({ in: "body", name: "body", required: true, schema });
    out.consumes = types;
  }
  if (params.length > 0) out.parameters = params;
  const produced = new Set<string>();
  const v2Responses: Json = {};
  for (const [code, res] of Object.entries(isJson(responses) ? responses : {})) {
    const { types, schema } = firstSchema(isJson(res) ? res.content : undefined);
    for (const t of types) produced.add(t);
    v2Responses[code] = { description: code === "200" ? "OK" : "", ...(schema ? { schema } : {}) };
  }
  out.produces = [...produced];
  out.schemes = ["https"];
  out.responses = v2Responses;
  return out;
}

function v2PathItem(item: unknown): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(isJson(item) ? item : {})) {
    if (k === "parameters" && Array.isArray(v)) out.parameters = v.map(v2Parameter);
    else if (METHODS.includes(k) && isJson(v)) out[k] = v2Operation(v);
    else out[k] = v;
  }
  return out;
}

/** One Swagger 2.0 document from the v3 documents of every served group/version. */
export function swaggerV2(documents: readonly OpenApiSchema[]): OpenApiSchema {
  const paths: Json = {};
  const definitions: Json = {};
  for (const doc of documents) {
    for (const [p, item] of Object.entries(isJson(doc.paths) ? doc.paths : {})) paths[p] = v2PathItem(item);
    const schemas = isJson(doc.components) && isJson(doc.components.schemas) ? doc.components.schemas : {};
    for (const [name, schema] of Object.entries(schemas)) definitions[name] ??= schema;
  }
  const sorted = (o: Json) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return v2Refs({
    swagger: "2.0",
    info: { title: "Kubernetes", version: "unversioned" },
    paths: sorted(paths),
    definitions: sorted(definitions),
    securityDefinitions: {
      BearerToken: {
        description: "Bearer Token authentication",
        type: "apiKey",
        name: "authorization",
        in: "header",
      },
    },
    security: [{ BearerToken: [] }],
  }) as OpenApiSchema;
}
