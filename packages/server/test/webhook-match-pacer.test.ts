/**
 * Webhooks' matchConditions (src/admission/webhooks/match-conditions.ts) go through the admission
 * pacer as policies do: conditions that are expensive give the event loop back between them, and
 * the answers (match, no match, the error under Fail, a skip under Ignore) are the same whether the
 * loop is given back after every condition or never.
 */
import { describe, expect, it } from "vitest";
import type { AdmissionAttributes } from "../src/admission/attributes.js";
import type { MatchCondition, Webhook } from "../src/admission/webhooks/configurations.js";
import { matchConditionsSelect } from "../src/admission/webhooks/match-conditions.js";
import { CostPacer } from "../src/cel/admission/index.js";

/** Whether a callback queued with setImmediate before `step` ran before `step` settled. */
async function gaveTurn(step: () => unknown): Promise<boolean> {
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  await Promise.resolve(step()).catch(() => undefined);
  return ran;
}

const webhook = (matchConditions: MatchCondition[], failurePolicy: "Fail" | "Ignore" = "Fail"): Webhook => ({
  uid: "c/w#0",
  configuration: "c",
  name: "w.kubesdk.test",
  clientConfig: { url: "https://127.0.0.1:1/unused" },
  rules: [],
  failurePolicy,
  matchPolicy: "Equivalent",
  namespaceSelector: {},
  objectSelector: {},
  sideEffects: "None",
  timeoutSeconds: 10,
  admissionReviewVersions: ["v1"],
  reinvocationPolicy: "Never",
  matchConditions,
});

const items = Array.from({ length: 60 }, (_, i) => `i${i % 50}`);
const object = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "cm", namespace: "ns" },
  data: {},
  items,
};
const attributes: AdmissionAttributes = {
  operation: "CREATE",
  kind: { group: "", version: "v1", kind: "ConfigMap" },
  resource: { group: "", version: "v1", resource: "configmaps" },
  subresource: "",
  namespace: "ns",
  name: "cm",
  object,
  oldObject: undefined,
  userInfo: { name: "admin", groups: ["system:masters"] },
  dryRun: false,
};

const unique = { name: "unique", expression: "object.items.all(x, object.items.exists_one(y, y == x))" };
const many = { name: "many", expression: "size(object.items) > 10" };
const short = { name: "short", expression: "object.items.all(x, x.size() < 4)" };
const missing = { name: "missing", expression: "object.data.missing == 'x'" };

/** The answer of one selection: selected, or the rejection's message. */
async function answer(w: Webhook, pacer: CostPacer): Promise<boolean | string> {
  try {
    return await matchConditionsSelect(w, attributes, object, pacer);
  } catch (e) {
    return (e as Error).message;
  }
}

const cases: [string, Webhook][] = [
  ["all true", webhook([many, short])],
  ["a false one", webhook([unique, many, short])],
  ["an error under Fail", webhook([many, missing, short])],
  ["an error under Ignore", webhook([many, missing], "Ignore")],
  ["a false one after an error", webhook([missing, unique])],
];

describe("webhook matchConditions through the pacer", () => {
  it("answer the same with a turn after every condition or none", async () => {
    for (const [, w] of cases)
      expect(await answer(w, new CostPacer(0))).toEqual(await answer(w, new CostPacer(Infinity)));
    expect(await Promise.all(cases.map(([, w]) => answer(w, new CostPacer(0))))).toEqual([
      true,
      false,
      `configmaps "cm" is forbidden: expression 'object.data.missing == 'x'' resulted in error: no such key: missing`,
      false,
      false,
    ]);
  });

  it("expensive conditions give the loop back between them; without conditions the answer is immediate", async () => {
    const w = webhook([unique, many]);
    expect(await gaveTurn(() => matchConditionsSelect(w, attributes, object, new CostPacer(0)))).toBe(true);
    expect(await gaveTurn(() => matchConditionsSelect(w, attributes, object, new CostPacer(Infinity)))).toBe(
      false,
    );
    expect(matchConditionsSelect(webhook([]), attributes, object, new CostPacer(0))).toBe(true);
  });

  it("see the requester through authorizer, and are bounded by the per-call cost limit", async () => {
    const authz = { name: "authz", expression: "authorizer.requestResource.check('create').allowed()" };
    expect(await answer(webhook([authz]), new CostPacer())).toBe(true);
    const restricted = { ...attributes, userInfo: { name: "x", groups: [], restricted: true } };
    expect(await matchConditionsSelect(webhook([authz]), restricted, object, new CostPacer())).toBe(false);
    const big = { ...object, items: Array.from({ length: 3000 }, (_, i) => `i${i}`) };
    const quadratic = webhook([unique]);
    await expect(
      Promise.resolve(matchConditionsSelect(quadratic, { ...attributes, object: big }, big, new CostPacer())),
    ).rejects.toThrow("operation cancelled: actual cost limit exceeded");
  });
});
