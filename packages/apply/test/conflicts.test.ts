import { describe, expect, it } from "vitest";
import { parseApplyConflicts, parseManager } from "../src/conflicts.js";

describe("parseManager", () => {
  it.each([
    ['"kubectl"', { manager: "kubectl", operation: "Apply" }],
    ['"hpa" using autoscaling/v2', { manager: "hpa", operation: "Update", apiVersion: "autoscaling/v2" }],
    ['"ctrl" with subresource "status"', { manager: "ctrl", operation: "Apply", subresource: "status" }],
    [
      '"kube-controller-manager" with subresource "scale" using apps/v1',
      {
        manager: "kube-controller-manager",
        operation: "Update",
        apiVersion: "apps/v1",
        subresource: "scale",
      },
    ],
    [
      '"kubectl-edit" using v1 at 2026-11-21T10:00:00Z',
      { manager: "kubectl-edit", operation: "Update", apiVersion: "v1" },
    ],
    ['"with \\"quotes\\""', { manager: 'with "quotes"', operation: "Apply" }],
  ])("%s", (text, want) => {
    expect(parseManager(text)).toEqual(want);
  });

  it("rejects text that is not a manager", () => {
    expect(parseManager("nobody")).toBeUndefined();
  });
});

describe("parseApplyConflicts", () => {
  it("reads the causes when present", () => {
    const got = parseApplyConflicts("ignored", [
      {
        reason: "FieldManagerConflict",
        message: 'conflict with "kubectl-client-side-apply" using apps/v1',
        field: ".spec.replicas",
      },
      {
        reason: "FieldManagerConflict",
        message: 'conflict with "a"',
        field: '.spec.containers[name="web"].image',
      },
      { reason: "Other", message: "x", field: ".y" },
    ]);
    expect(got).toEqual([
      {
        manager: "kubectl-client-side-apply",
        operation: "Update",
        apiVersion: "apps/v1",
        path: ".spec.replicas",
      },
      { manager: "a", operation: "Apply", path: '.spec.containers[name="web"].image' },
    ]);
  });

  it("falls back to the single-conflict message", () => {
    expect(
      parseApplyConflicts(
        'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
        [],
      ),
    ).toEqual([
      {
        manager: "kubectl-client-side-apply",
        operation: "Update",
        apiVersion: "apps/v1",
        path: ".spec.replicas",
      },
    ]);
  });

  it("falls back to the multi-conflict message", () => {
    const message =
      'Apply failed with 3 conflicts: conflicts with "a":\n- .data.x\n- .data.y\nconflicts with "b" using v1:\n- .data.z';
    expect(parseApplyConflicts(message, [])).toEqual([
      { manager: "a", operation: "Apply", path: ".data.x" },
      { manager: "a", operation: "Apply", path: ".data.y" },
      { manager: "b", operation: "Update", apiVersion: "v1", path: ".data.z" },
    ]);
  });
});
