/**
 * The shared setup of the pod spec validation suites (validation-pod-*.test.ts): a namespace with
 * its `default` service account (the ServiceAccount admission plugin refuses pods without one; no
 * controller-manager creates it on the real server here), and one `it` per table row.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { checkRow, type SpecRow } from "./spec-validation-cases.js";

/** A pod with one plain container and the given spec fields. */
export const pod = (spec: Record<string, unknown>) => ({
  metadata: { name: "p" },
  spec: { containers: [{ name: "c", image: "busybox" }], ...spec },
});

/** A pod of one container `c` (with `container`'s fields) and the given spec fields. */
export const podWith = (spec: Record<string, unknown>, container: Record<string, unknown>) => ({
  metadata: { name: "p" },
  spec: { containers: [{ name: "c", image: "busybox", ...container }], ...spec },
});

/** [what, spec fields, container fields, causes under spec]: accepted rows have no causes. */
export type PodRow = readonly [string, Record<string, unknown>, Record<string, unknown>, readonly string[]];

export interface PodValidationSuite {
  readonly target: () => TestTarget;
  readonly podPath: () => string;
  /** One pod row: `causes` are relative to `under` (" | ..." is on `under`, "[i]..." an item). */
  readonly itAnswers: (name: string, body: Record<string, unknown>, causes: string[], under: string) => void;
  /** One `it` per row, each a pod built by podWith. */
  readonly itAnswersPods: (rows: readonly PodRow[]) => void;
}

/** Registers the suite's beforeAll/afterAll; call at the top of a test file. */
export function podValidationSuite(prefix: string): PodValidationSuite {
  let t: TestTarget;
  const ns = uniqueName(prefix);
  beforeAll(async () => {
    t = await startTarget();
    const created = await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
    expect(created.status).toBe(201);
    await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
      body: { metadata: { name: "default" } },
    });
  });
  afterAll(async () => {
    await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
    await t?.close();
  });
  const podPath = () => `/api/v1/namespaces/${ns}/pods`;
  const itAnswers = (
    name: string,
    body: Record<string, unknown>,
    causes: readonly string[],
    under: string,
  ) => {
    const at = (c: string) => `${under}${/^( \||\[)/.test(c) ? "" : "."}${c}`;
    const row: SpecRow = { name, path: podPath(), body, causes: causes.map(at) };
    it(`answers ${name} as kube-apiserver does`, () => checkRow(t, row));
  };
  return {
    target: () => t,
    podPath,
    itAnswers,
    itAnswersPods(rows) {
      for (const [what, spec, container, causes] of rows)
        itAnswers(`a pod with ${what}`, podWith(spec, container), causes, "spec");
    },
  };
}
