/**
 * What the CRD rule suites share (crd-cel-libraries.test.ts, crd-cel-comprehensions.test.ts): a
 * target with a namespace and one CRD whose spec carries the rules under test, dry-run creates of
 * its objects and dry-run writes of other CRDs, the messages of a refusal's causes, and the first
 * compilation error reported for each rule.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { createSimpleCrd, deleteCrd, simpleCrdBody } from "../support/crd.js";
import { type CallResult, startTarget, type TestTarget, uniqueName } from "../support/target.js";

type Cause = { field: string; reason: string; message: string };
type Res = { status: number; json: { details?: { causes?: Cause[] } } };
type Obj = Record<string, unknown>;

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

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

export interface RuleSuite {
  /** A dry-run create of the suite's kind with this spec. */
  create(spec: Obj): Promise<CallResult>;
  /** A dry-run write of another CRD of the suite's group, with this schema of `.spec`. */
  writeCrd(spec: Obj): Promise<CallResult>;
}

/** Registers the hooks of a suite: a target, a namespace and the CRD `kind` (plural `plural`) with `spec`. */
export function useRuleSuite(prefix: string, kind: string, plural: string, spec: Obj): RuleSuite {
  let t: TestTarget;
  let ns: string;
  let crdName: string;
  const group = `${uniqueName(prefix)}.kubesdk.example`;
  beforeAll(async () => {
    t = await startTarget();
    ns = uniqueName(prefix);
    expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(
      201,
    );
    crdName = await createSimpleCrd(t, { group, plural, kind, spec });
  });
  afterAll(async () => {
    await t.call("DELETE", `/api/v1/namespaces/${ns}`);
    await deleteCrd(t, crdName);
    await t.close();
  });
  return {
    create: (s) =>
      t.call("POST", `/apis/${group}/v1/namespaces/${ns}/${plural}?dryRun=All`, {
        body: { apiVersion: `${group}/v1`, kind, metadata: { name: "o" }, spec: s },
      }),
    writeCrd: (s) =>
      t.call("POST", `${CRDS}?dryRun=All`, {
        body: simpleCrdBody({ group, plural: "probes", kind: "Probe", spec: s }),
      }),
  };
}
