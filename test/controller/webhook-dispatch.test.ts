/**
 * Dispatch of webhook requests without a server: an AdmissionReview or ConversionReview body in,
 * the complete answer out — allowed, denied with its message, patched, warned, failed by a handler
 * error or deadline — with the uid and review version echoed.
 */
import { defineCustomResource } from "@kubesdk/client";
import { type AdmissionRequest, deny } from "@kubesdk/controller";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { converterEntry } from "../../packages/controller/src/webhooks/conversion.js";
import { handlerDeadlineMs, parseGoDuration } from "../../packages/controller/src/webhooks/deadline.js";
import { WebhookRegistry } from "../../packages/controller/src/webhooks/registry.js";

const Widget = defineCustomResource({
  group: "dispatch.example.com",
  kind: "Widget",
  scope: "Namespaced",
  versions: {
    v1alpha1: { schema: Type.Object({ spec: Type.Object({ size: Type.Optional(Type.Integer()) }) }) },
    v1beta1: { schema: Type.Object({ spec: Type.Object({ dimension: Type.Optional(Type.Integer()) }) }) },
    v1: {
      storage: true,
      schema: Type.Object({ spec: Type.Object({ width: Type.Optional(Type.Integer()) }) }),
    },
  },
});

const widget = (spec: Record<string, unknown>, version = "v1") => ({
  apiVersion: `dispatch.example.com/${version}`,
  kind: "Widget",
  metadata: { name: "w", namespace: "ns", uid: "u-1", labels: { a: "b" } },
  spec,
});

const review = (
  operation: string,
  object: unknown,
  oldObject?: unknown,
  apiVersion = "admission.k8s.io/v1",
) =>
  JSON.stringify({
    apiVersion,
    kind: "AdmissionReview",
    request: {
      uid: "req-1",
      kind: { group: "dispatch.example.com", version: "v1", kind: "Widget" },
      resource: { group: "dispatch.example.com", version: "v1", resource: "widgets" },
      operation,
      userInfo: { username: "alice", groups: ["devs"] },
      name: "w",
      namespace: "ns",
      object,
      oldObject,
      dryRun: true,
    },
  });

async function answer(registry: WebhookRegistry, path: string, body: string, deadlineMs = 5000) {
  const result = await registry.dispatch(path, body, deadlineMs);
  return {
    status: result.status,
    json: result.contentType === "application/json" ? JSON.parse(result.body) : undefined,
    text: result.body,
  };
}

describe("admission dispatch", () => {
  it("gives a validating handler the typed request and answers its denial with message and code", async () => {
    const registry = new WebhookRegistry();
    const seen: unknown[] = [];
    registry.addAdmission("validating", Widget, (req: AdmissionRequest<unknown>) => {
      seen.push([req.operation, req.userInfo.username, req.dryRun, req.oldObject, req.name, req.namespace]);
      req.warn("width is experimental");
      return deny("width must be even", { code: 422 });
    });
    const r = await answer(
      registry,
      "/validate-dispatch-example-com-v1-widget",
      review("CREATE", widget({ width: 3 })),
    );
    expect(seen).toEqual([["CREATE", "alice", true, undefined, "w", "ns"]]);
    expect(r.json).toEqual({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: {
        uid: "req-1",
        allowed: false,
        status: { code: 422, message: "width must be even" },
        warnings: ["width is experimental"],
      },
    });
  });

  it("allows when the validating handler returns nothing, echoing a v1beta1 review's version", async () => {
    const registry = new WebhookRegistry();
    registry.addAdmission("validating", Widget, () => {}, { path: "/v" });
    const r = await answer(
      registry,
      "/v",
      review("UPDATE", widget({}), widget({}), "admission.k8s.io/v1beta1"),
    );
    expect(r.json).toEqual({
      apiVersion: "admission.k8s.io/v1beta1",
      kind: "AdmissionReview",
      response: { uid: "req-1", allowed: true },
    });
  });

  it("answers a mutating handler's changed object as a base64 JSON Patch", async () => {
    const registry = new WebhookRegistry();
    registry.addAdmission("mutating", Widget, (obj: ReturnType<typeof widget>) => {
      obj.spec.width ??= 2;
    });
    const r = await answer(registry, "/mutate-dispatch-example-com-v1-widget", review("CREATE", widget({})));
    expect(r.json.response.patchType).toBe("JSONPatch");
    expect(JSON.parse(Buffer.from(r.json.response.patch, "base64").toString())).toEqual([
      { op: "add", path: "/spec/width", value: 2 },
    ]);
  });

  it("answers no patch when the mutating handler changed nothing", async () => {
    const registry = new WebhookRegistry();
    registry.addAdmission("mutating", Widget, (obj: unknown) => obj, { path: "/m" });
    const r = await answer(registry, "/m", review("CREATE", widget({ width: 2 })));
    expect(r.json.response).toEqual({ uid: "req-1", allowed: true });
  });

  it("denies with the handler's error message when a handler throws", async () => {
    const registry = new WebhookRegistry();
    registry.addAdmission(
      "validating",
      Widget,
      () => {
        throw new Error("database unreachable");
      },
      { path: "/v" },
    );
    const r = await answer(registry, "/v", review("CREATE", widget({})));
    expect(r.json.response).toEqual({
      uid: "req-1",
      allowed: false,
      status: {
        code: 500,
        reason: "InternalError",
        message: "validating webhook handler failed: database unreachable",
      },
    });
  });

  it("denies once the deadline passes and aborts the handler's signal", async () => {
    const registry = new WebhookRegistry();
    let aborted: Promise<unknown> | undefined;
    registry.addAdmission(
      "mutating",
      Widget,
      (_o, req) => {
        aborted = new Promise((resolve) =>
          req.signal.addEventListener("abort", () => resolve(req.signal.reason)),
        );
        return new Promise(() => {});
      },
      { path: "/m" },
    );
    const r = await answer(registry, "/m", review("CREATE", widget({})), 50);
    expect(r.json.response.allowed).toBe(false);
    expect(r.json.response.status.message).toBe("mutating webhook handler did not answer within 50 ms");
    await expect(aborted).resolves.toBeInstanceOf(Error);
  });

  it("refuses malformed bodies and unknown paths with 400 and 404", async () => {
    const registry = new WebhookRegistry();
    registry.addAdmission("validating", Widget, () => {}, { path: "/v" });
    expect((await answer(registry, "/v", "{not json")).status).toBe(400);
    expect(
      (
        await answer(
          registry,
          "/v",
          JSON.stringify({ kind: "AdmissionReview", apiVersion: "admission.k8s.io/v1" }),
        )
      ).status,
    ).toBe(400);
    expect((await answer(registry, "/elsewhere", review("CREATE", widget({})))).status).toBe(404);
  });

  it("refuses a second handler on the same path", () => {
    const registry = new WebhookRegistry();
    registry.addAdmission("validating", Widget, () => {});
    expect(() => registry.addAdmission("validating", Widget, () => {})).toThrow(/taken/);
  });
});

describe("conversion dispatch", () => {
  const registry = new WebhookRegistry();
  registry.addConverter(
    Widget,
    converterEntry(Widget, {
      hub: "v1",
      spokes: {
        v1alpha1: {
          toHub: (o) => ({ ...o, spec: { width: o.spec.size } }) as never,
          fromHub: (o) => ({ ...o, spec: { size: o.spec.width } }) as never,
        },
        v1beta1: {
          toHub: (o) => {
            if (o.spec.dimension === 13) throw new Error("13 has no width");
            return { ...o, spec: { width: o.spec.dimension } } as never;
          },
          fromHub: (o) =>
            ({
              ...o,
              metadata: { name: "renamed", labels: { converted: "yes" } },
              spec: { dimension: o.spec.width },
            }) as never,
        },
      },
    }),
  );
  const conversion = (desiredAPIVersion: string, objects: unknown[]) =>
    JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: { uid: "c-1", desiredAPIVersion, objects },
    });

  it("converts every object of a review spoke to spoke through the hub, keeping order and identity", async () => {
    const r = await answer(
      registry,
      "/convert",
      conversion("dispatch.example.com/v1beta1", [
        widget({ size: 1 }, "v1alpha1"),
        widget({ width: 2 }, "v1"),
        widget({ dimension: 3 }, "v1beta1"),
      ]),
    );
    expect(r.json.response.result).toEqual({ status: "Success" });
    expect(r.json.response.uid).toBe("c-1");
    expect(r.json.response.convertedObjects.map((o: { spec: unknown }) => o.spec)).toEqual([
      { dimension: 1 },
      { dimension: 2 },
      { dimension: 3 },
    ]);
    for (const o of r.json.response.convertedObjects) {
      expect(o.apiVersion).toBe("dispatch.example.com/v1beta1");
      expect(o.kind).toBe("Widget");
      // The converter renamed the object: only its labels may change.
      expect(o.metadata).toEqual({ name: "w", namespace: "ns", uid: "u-1", labels: { converted: "yes" } });
    }
  });

  it("fails the whole review, naming the object, when one conversion throws", async () => {
    const r = await answer(
      registry,
      "/convert",
      conversion("dispatch.example.com/v1", [
        widget({ dimension: 2 }, "v1beta1"),
        widget({ dimension: 13 }, "v1beta1"),
      ]),
    );
    expect(r.json.response).toEqual({
      uid: "c-1",
      convertedObjects: [],
      result: {
        status: "Failure",
        message:
          "converting Widget ns/w from dispatch.example.com/v1beta1 to dispatch.example.com/v1: 13 has no width",
      },
    });
  });

  it("fails a review for a kind it has no converter for", async () => {
    const r = await answer(
      registry,
      "/convert",
      conversion("dispatch.example.com/v1", [{ ...widget({}), kind: "Gadget" }]),
    );
    expect(r.json.response.result).toEqual({
      status: "Failure",
      message: "no converter for Gadget.dispatch.example.com",
    });
  });

  it("refuses a definition with a version that has no spoke", () => {
    expect(() =>
      converterEntry(Widget, {
        hub: "v1",
        spokes: { v1alpha1: { toHub: (o: unknown) => o as never, fromHub: (o: unknown) => o as never } },
      } as never),
    ).toThrow(/v1beta1/);
  });
});

describe("handler deadline", () => {
  it("stays below the timeout the API server announces", () => {
    expect(parseGoDuration("10s")).toBe(10_000);
    expect(parseGoDuration("1m30s")).toBe(90_000);
    expect(parseGoDuration("1.5s")).toBe(1500);
    expect(parseGoDuration("ten")).toBeUndefined();
    expect(handlerDeadlineMs(8000, "2s")).toBe(1600);
    expect(handlerDeadlineMs(8000, "30s")).toBe(8000);
    expect(handlerDeadlineMs(8000, null)).toBe(8000);
  });
});
