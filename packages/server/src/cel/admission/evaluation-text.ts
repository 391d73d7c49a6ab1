/** cel-go's wording of an evaluator error, shared by the event loop and the rule workers. */
import { celGoText } from "../validate-rules.js";

/** cel-go's text of an evaluator error. */
export function evaluationText(e: unknown): string {
  return celGoText(((e as Error).message ?? String(e)).split("\n")[0] ?? "");
}
