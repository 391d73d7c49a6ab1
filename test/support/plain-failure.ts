import { expect } from "vitest";

/** An unclassified error: 500 with only a message (no reason, no details), as kube-apiserver writes it. */
export function expectPlainFailure(res: { status: number; json: unknown }, message: string): void {
  expect(res.status).toBe(500);
  expect(res.json).toEqual({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    code: 500,
  });
}
