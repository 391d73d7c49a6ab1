/**
 * A CRD's structural schema as TypeBox code: the inverse of `toStructuralSchema` in
 * @kubesdk/client, so `defineCustomResource` on the generated code gives back an equivalent schema.
 * Keywords with no TypeBox builder of their own (descriptions, bounds, formats, `x-kubernetes-*`)
 * go into the builder's options as JSON.
 */
type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** TypeBox code for `schema`, indented by `indent` for its continuation lines. */
export function schemaCode(schema: Schema, indent = ""): string {
  if (schema.nullable === true) {
    const { nullable: _, ...rest } = schema;
    return `Type.Union([${schemaCode(rest, indent)}, Type.Null()])`;
  }
  if (schema["x-kubernetes-int-or-string"] === true)
    return call("CrdType.IntOrString", without(schema, ["x-kubernetes-int-or-string", "anyOf"]));
  const properties = isSchema(schema.properties) ? schema.properties : undefined;
  switch (schema.type) {
    case "object":
      if (properties) return objectCode(schema, properties, indent);
      if (isSchema(schema.additionalProperties))
        return `Type.Record(Type.String(), ${schemaCode(schema.additionalProperties, indent)}${optionsArg(without(schema, ["type", "additionalProperties"]))})`;
      if (
        schema["x-kubernetes-embedded-resource"] === true &&
        schema["x-kubernetes-preserve-unknown-fields"] === true
      )
        return call(
          "CrdType.EmbeddedResource",
          without(schema, ["type", "x-kubernetes-embedded-resource", "x-kubernetes-preserve-unknown-fields"]),
        );
      if (schema["x-kubernetes-preserve-unknown-fields"] === true)
        return call(
          "CrdType.PreserveUnknownFields",
          without(schema, ["type", "x-kubernetes-preserve-unknown-fields"]),
        );
      return `Type.Object({}${optionsArg(without(schema, ["type"]))})`;
    case "array":
      return `Type.Array(${schemaCode(isSchema(schema.items) ? schema.items : {}, indent)}${optionsArg(without(schema, ["type", "items"]))})`;
    case "string":
    case "integer":
    case "number":
    case "boolean":
      if (Array.isArray(schema.enum))
        return `Type.Enum(${JSON.stringify(schema.enum)}${optionsArg(without(schema, ["enum"]))})`;
      return call(`Type.${capitalize(schema.type)}`, numericBounds(without(schema, ["type"])));
    default:
      return call("Type.Unknown", schema);
  }
}

function objectCode(schema: Schema, properties: Schema, indent: string): string {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(([name, child]) => {
    const childSchema = isSchema(child) ? child : {};
    const code = schemaCode(childSchema, inner);
    const value = required.has(name) ? code : `Type.Optional(${code})`;
    return `${docComment(childSchema.description, inner)}${inner}${propertyKey(name)}: ${value},\n`;
  });
  const options = optionsArg(without(schema, ["type", "properties", "required"]));
  return `Type.Object({\n${lines.join("")}${indent}}${options})`;
}

/** A doc comment line for a description, or nothing. */
export function docComment(description: unknown, indent: string): string {
  if (typeof description !== "string" || description.trim() === "") return "";
  const text = description.trim().replaceAll("*/", "*\\/");
  const lines = text.split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === "" ? "" : ` ${l}`}\n`).join("")}${indent} */\n`;
}

/** OpenAPI v3.0's `exclusiveMinimum: true` beside `minimum` in TypeBox's (JSON Schema 2020-12) numeric form. */
function numericBounds(options: Schema): Schema {
  const out = { ...options };
  for (const [bound, flag] of [
    ["minimum", "exclusiveMinimum"],
    ["maximum", "exclusiveMaximum"],
  ] as const) {
    if (out[flag] === true && typeof out[bound] === "number") {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) delete out[flag];
  }
  return out;
}

function call(builder: string, options: Schema): string {
  return Object.keys(options).length === 0 ? `${builder}()` : `${builder}(${JSON.stringify(options)})`;
}

function optionsArg(options: Schema): string {
  return Object.keys(options).length === 0 ? "" : `, ${JSON.stringify(options)}`;
}

function without(schema: Schema, keys: readonly string[]): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !keys.includes(k)));
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** An object key as written in code: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
