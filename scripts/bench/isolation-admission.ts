/**
 * The admission phases of isolation-bench.ts, while another client sends small GETs:
 *
 * - an expensive CEL rule: dry-run creates of a custom resource whose CRD rule (a uniqueness check,
 *   quadratic in the list) is estimated just under the CRD cost budget when the CRD is written, and
 *   whose objects hold as many items as the per-call limit admits, so every write runs the rule at
 *   close to the 10⁶ cost units one evaluation may spend;
 * - a slow conversion webhook: reads, in the version that is not stored, of a custom resource whose
 *   conversion webhook (served from this process) answers each ConversionReview after 500 ms.
 */
import { startHttpsWebhook } from "../../test/support/https-webhook.js";

export type Call = (method: string, path: string, body?: string, contentType?: string) => Promise<number>;

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const GROUP = "iso-admission.kubesdk.example";
const NS = "iso";
const json = (v: unknown) => JSON.stringify(v);
// The rule's estimate with `maxItems` 1400 is just under the 10⁷ per-rule budget (1500 is over);
// 430 items is the most one evaluation's 10⁶ limit admits (450 is refused as over it).
const MAX_ITEMS = 1400;
const ITEMS = 430;
const UNIQUE_ITEMS_RULE = "self.items.all(x, self.items.exists_one(y, y == x))";
const ANSWER_AFTER_MS = 500;
// Fewer than the bench client's 8 connections: the GETs must not queue behind the reads in the client.
const PARALLEL = 4;

export interface AdmissionPhase {
  readonly name: string;
  readonly send: () => Promise<number>;
  readonly close: () => Promise<void>;
}

const version = (name: string, storage: boolean, spec: Record<string, unknown>) => ({
  name,
  served: true,
  storage,
  schema: { openAPIV3Schema: { type: "object", properties: { spec } } },
});

function crd(plural: string, versions: unknown[], conversion?: unknown) {
  return {
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { plural, kind: `K${plural}` },
      versions,
      ...(conversion ? { conversion } : {}),
    },
  };
}

/** Creates a CRD and waits until its resources are served (a bounded number of probes). */
async function install(
  call: Call,
  body: ReturnType<typeof crd>,
  probe: string,
): Promise<() => Promise<void>> {
  const code = await call("POST", CRDS, json(body), "application/json");
  if (code !== 201) throw new Error(`creating ${body.metadata.name}: ${code}`);
  for (let i = 0; (await call("GET", probe)) !== 200; i++) {
    if (i === 200) throw new Error(`${body.metadata.name} is not served`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return async () => void (await call("DELETE", `${CRDS}/${body.metadata.name}`));
}

export async function expensiveCelRule(call: Call): Promise<AdmissionPhase> {
  const spec = {
    type: "object",
    "x-kubernetes-validations": [{ rule: UNIQUE_ITEMS_RULE, message: "items must be unique" }],
    properties: { items: { type: "array", maxItems: MAX_ITEMS, items: { type: "string", maxLength: 8 } } },
  };
  const path = `/apis/${GROUP}/v1/namespaces/${NS}/uniques`;
  const close = await install(call, crd("uniques", [version("v1", true, spec)]), path);
  const items = Array.from({ length: ITEMS }, (_, i) => `i${i}`);
  let n = 0;
  return {
    name: `CEL rule, ${ITEMS}² steps`,
    send: () =>
      call(
        "POST",
        `${path}?dryRun=All`,
        json({ apiVersion: `${GROUP}/v1`, kind: "Kuniques", metadata: { name: `u${n++}` }, spec: { items } }),
        "application/json",
      ),
    close,
  };
}

/** Answers a ConversionReview by relabelling each object: the schemas of both versions are the same. */
function relabel(body: unknown): unknown {
  const { request } = body as { request: { uid: string; desiredAPIVersion: string; objects: object[] } };
  const convertedObjects = request.objects.map((o) => ({ ...o, apiVersion: request.desiredAPIVersion }));
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    response: { uid: request.uid, result: { status: "Success" }, convertedObjects },
  };
}

export async function slowConversionWebhook(call: Call): Promise<AdmissionPhase> {
  const hook = await startHttpsWebhook();
  hook.handle(
    "/convert",
    (review) => new Promise((resolve) => setTimeout(() => resolve(relabel(review)), ANSWER_AFTER_MS)),
  );
  const spec = { type: "object", properties: { size: { type: "integer" } } };
  const conversion = {
    strategy: "Webhook",
    webhook: {
      conversionReviewVersions: ["v1"],
      clientConfig: { url: `${hook.url}/convert`, caBundle: hook.caBundle },
    },
  };
  const body = crd("converteds", [version("v1", true, spec), version("v2", false, spec)], conversion);
  const stored = `/apis/${GROUP}/v1/namespaces/${NS}/converteds`;
  const removeCrd = await install(call, body, stored);
  const object = {
    apiVersion: `${GROUP}/v1`,
    kind: "Kconverteds",
    metadata: { name: "one" },
    spec: { size: 1 },
  };
  await call("POST", stored, json(object), "application/json");
  const readConverted = () => call("GET", `/apis/${GROUP}/v2/namespaces/${NS}/converteds/one`);
  return {
    name: `slow conversion (${ANSWER_AFTER_MS} ms)`,
    send: async () => {
      const codes = await Promise.all(Array.from({ length: PARALLEL }, readConverted));
      return codes.find((c) => c !== 200) ?? 200;
    },
    close: async () => {
      await removeCrd();
      await hook.close();
    },
  };
}
