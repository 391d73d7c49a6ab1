/** Query options shared by write verbs. */
import { errors } from "../api/status.js";

/** `dryRun=All` (repeatable); anything else is 422 like upstream's options validation. */
export function parseDryRun(q: URLSearchParams, optionsKind = "CreateOptions"): boolean {
  const values = q.getAll("dryRun").filter((v) => v !== "");
  for (const v of values)
    if (v !== "All")
      throw errors.invalid(optionsKind, "meta.k8s.io", "", [
        { type: "FieldValueNotSupported", field: "dryRun", value: v, detail: 'supported values: "All"' },
      ]);
  return values.length > 0;
}
