/** A one-version namespaced CRD for contract tests, created and awaited until it is Established. */
import { expect } from "vitest";
import type { TestTarget } from "./target.js";
import { openWatch } from "./watch-client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

export interface SimpleCrd {
  readonly group: string;
  readonly plural: string;
  readonly kind: string;
  /** The schema of `.spec`. */
  readonly spec: Record<string, unknown>;
}

/** The CustomResourceDefinition of a SimpleCrd. */
export function simpleCrdBody(c: SimpleCrd): Record<string, unknown> {
  const names = { plural: c.plural, singular: c.kind.toLowerCase(), kind: c.kind, listKind: `${c.kind}List` };
  const openAPIV3Schema = { type: "object", properties: { spec: c.spec } };
  const version = { name: "v1", served: true, storage: true, schema: { openAPIV3Schema } };
  return {
    metadata: { name: `${c.plural}.${c.group}` },
    spec: { group: c.group, scope: "Namespaced", names, versions: [version] },
  };
}

/** Creates the CRD and resolves once it reports Established=True (observed on a watch). */
export async function createSimpleCrd(t: TestTarget, c: SimpleCrd): Promise<string> {
  const name = `${c.plural}.${c.group}`;
  const w = await openWatch(t, `${CRDS}?watch=true&fieldSelector=metadata.name%3D${name}`);
  try {
    const created = await t.call("POST", CRDS, { body: simpleCrdBody(c) });
    expect(created.status, created.text).toBe(201);
    await w.until((e) =>
      (e.object?.status?.conditions ?? []).some(
        (x: { type: string; status: string }) => x.type === "Established" && x.status === "True",
      ),
    );
  } finally {
    await w.close();
  }
  return name;
}

export const deleteCrd = (t: TestTarget, name: string) => t.call("DELETE", `${CRDS}/${name}`);
