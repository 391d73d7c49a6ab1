/**
 * The CEL environment CRD rules are compiled in: the evaluator
 * (@marcbachmann/cel-js, chosen over @bufbuild/cel because it type-checks
 * against declared object types, which is what reports a misspelt field when
 * the CRD is written, supports optional types, and compiled and evaluated the
 * rules we measured 3–25 times faster, see docs/guides/crd-validation-rules.md)
 * plus the Kubernetes libraries, and the schema's types.
 */
import { Environment } from "@marcbachmann/cel-js";
import { registerDurationText } from "./library/duration.js";
import { registerExtLists } from "./library/ext-lists.js";
import { registerFormat } from "./library/format.js";
import { registerLists } from "./library/lists.js";
import { registerNetwork } from "./library/network.js";
import { registerQuantity } from "./library/quantity.js";
import { registerRegex } from "./library/regex.js";
import { registerSemver } from "./library/semver.js";
import { registerSets } from "./library/sets.js";
import { registerSortBy } from "./library/sort-by.js";
import { registerStrings } from "./library/strings.js";
import { registerTwoVarComprehensions } from "./library/two-var.js";

/** A fresh environment with the libraries the apiserver registers for CRD rules (as far as implemented). */
export function baseEnvironment(): Environment {
  // cel-go accepts mixed-type list and map literals unless told otherwise; the apiserver does not tell it.
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  registerLists(env);
  registerExtLists(env);
  registerSortBy(env);
  registerTwoVarComprehensions(env);
  registerSets(env);
  registerStrings(env);
  registerRegex(env);
  registerQuantity(env);
  registerNetwork(env);
  registerSemver(env);
  registerFormat(env);
  registerDurationText(env);
  return env;
}
