/** Reading the decoded JSON of policies, bindings and params: objects, lists of objects, names. */
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The objects of a JSON list (anything else: none). */
export const objectsOf = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** The strings of a JSON list. */
export const stringsOf = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** metadata.name of an object, "" when it has none. */
export const nameOf = (o: Obj): string => String((isObj(o.metadata) ? o.metadata.name : "") ?? "");

/** The `{name, expression}` items of a list (variables, matchConditions), as strings. */
export const namedExpressions = (v: unknown): { name: string; expression: string }[] =>
  objectsOf(v).map((x) => ({ name: String(x.name ?? ""), expression: String(x.expression ?? "") }));
