import type { appsV1 } from "@kubesdk/models";
import { describe, expectTypeOf, it } from "vitest";
import type { ApplyConfiguration } from "../src/apply-configuration.js";

describe("ApplyConfiguration", () => {
  it("keeps identity required and everything else optional", () => {
    const ok: ApplyConfiguration<appsV1.Deployment> = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web" },
      spec: { replicas: 2 },
    };
    expectTypeOf(ok.metadata.name).toEqualTypeOf<string>();
    const noName: ApplyConfiguration<appsV1.Deployment> = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      // @ts-expect-error metadata.name is required
      metadata: {},
    };
    const wrongKind: ApplyConfiguration<appsV1.Deployment> = {
      apiVersion: "apps/v1",
      // @ts-expect-error kind must be the kind's literal
      kind: "Pod",
      metadata: { name: "x" },
    };
    const wrongType: ApplyConfiguration<appsV1.Deployment> = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "x" },
      // @ts-expect-error fields keep their types
      spec: { replicas: "2" },
    };
    void [noName, wrongKind, wrongType];
  });

  it("works for a custom resource type", () => {
    interface Widget {
      apiVersion?: "example.com/v1";
      kind?: "Widget";
      metadata?: { name?: string };
      spec?: { size: number; color: string };
    }
    const w: ApplyConfiguration<Widget> = {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { size: 1 },
    };
    expectTypeOf(w.spec).toEqualTypeOf<{ size?: number; color?: string } | undefined>();
  });
});
