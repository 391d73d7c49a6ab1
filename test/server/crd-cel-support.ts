/**
 * Checks shared by the CRD rule suites (crd-cel-libraries.test.ts, crd-cel-comprehensions.test.ts):
 * the messages of a refusal's causes, and the first compilation error reported for each rule.
 */
import { expect } from "vitest";

type Cause = { field: string; reason: string; message: string };
type Res = { status: number; json: { details?: { causes?: Cause[] } } };

export const messages = (res: Res) => (res.json.details?.causes ?? []).map((c) => c.message);

/** A CRD write refused with one cause per rule, each starting with cel-go's `line:column: message`. */
export function expectCompilationErrors(res: Res, refused: readonly (readonly [string, string])[]): void {
  expect(res.status).toBe(422);
  const byRule = messages(res);
  expect(byRule).toHaveLength(refused.length);
  refused.forEach(([rule, end], i) => {
    expect(byRule[i]).toContain(`compilation failed: ERROR: <input>:${end}\n | ${rule}\n`);
  });
}
