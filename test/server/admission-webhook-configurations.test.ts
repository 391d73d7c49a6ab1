/**
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration as kube-apiserver stores them:
 * its defaults, and its validation of every webhook with its messages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const API = "/apis/admissionregistration.k8s.io/v1";
const base = {
  name: "a.kubesdk.test",
  clientConfig: { url: "https://127.0.0.1:1/x" },
  rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
  sideEffects: "None",
  admissionReviewVersions: ["v1"],
};
const without = (key: keyof typeof base) =>
  Object.fromEntries(Object.entries(base).filter(([k]) => k !== key));
const rule = (extra: object) => ({ ...base, rules: [{ ...base.rules[0], ...extra }] });

async function create(kind: "validating" | "mutating", webhooks: unknown[]) {
  const name = uniqueName("whc");
  const res = await t.call("POST", `${API}/${kind}webhookconfigurations`, {
    body: { metadata: { name }, webhooks },
  });
  if (res.status === 201) await t.call("DELETE", `${API}/${kind}webhookconfigurations/${name}`);
  return { name, res };
}

describe("webhook configurations", () => {
  it("are stored with upstream's defaults", async () => {
    const { res } = await create("mutating", [
      { ...base, clientConfig: { service: { namespace: "default", name: "svc" } } },
    ]);
    expect(res.status).toBe(201);
    expect(res.json.webhooks).toEqual([
      {
        ...base,
        clientConfig: { service: { namespace: "default", name: "svc", port: 443 } },
        rules: [{ ...base.rules[0], scope: "*" }],
        failurePolicy: "Fail",
        matchPolicy: "Equivalent",
        namespaceSelector: {},
        objectSelector: {},
        timeoutSeconds: 10,
        reinvocationPolicy: "Never",
      },
    ]);
  });

  const invalid: [string, unknown[], string, ("validating" | "mutating")?][] = [
    ["a webhook without a name", [without("name")], "webhooks[0].name: Required value"],
    [
      "a name with fewer than three segments",
      [{ ...base, name: "short" }],
      'webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
    ],
    ["a duplicate name", [base, base], 'webhooks[1].name: Duplicate value: "a.kubesdk.test"'],
    [
      "no sideEffects",
      [without("sideEffects")],
      "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
    ],
    [
      "sideEffects Unknown",
      [{ ...base, sideEffects: "Unknown" }],
      'webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
    ],
    [
      "no admissionReviewVersions",
      [without("admissionReviewVersions")],
      "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
    ],
    [
      "only unknown admissionReviewVersions",
      [{ ...base, admissionReviewVersions: ["v2"] }],
      'webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
    ],
    [
      "both url and service",
      [{ ...base, clientConfig: { url: "https://a/x", service: { namespace: "default", name: "s" } } }],
      "webhooks[0].clientConfig: Required value: exactly one of url or service is required",
    ],
    [
      "an http url",
      [{ ...base, clientConfig: { url: "http://a/x" } }],
      `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
    ],
    [
      "a url with a query",
      [{ ...base, clientConfig: { url: "https://a/x?b=c" } }],
      'webhooks[0].clientConfig.url: Invalid value: "b=c": query parameters are not permitted in the URL',
    ],
    [
      "a url with a fragment",
      [{ ...base, clientConfig: { url: "https://a/x#f" } }],
      'webhooks[0].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
    ],
    [
      "a url with user information",
      [{ ...base, clientConfig: { url: "https://u:p@a/x" } }],
      'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
    ],
    [
      "a url without a host",
      [{ ...base, clientConfig: { url: "https:///x" } }],
      'webhooks[0].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]',
    ],
    [
      "a service path without a leading slash",
      [{ ...base, clientConfig: { service: { namespace: "default", name: "s", path: "noslash" } } }],
      `webhooks[0].clientConfig.service.path: Invalid value: "noslash": must start with a '/'`,
    ],
    [
      "a service port out of range",
      [{ ...base, clientConfig: { service: { namespace: "default", name: "s", port: 0 } } }],
      "webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
    ],
    [
      "timeoutSeconds above 30",
      [{ ...base, timeoutSeconds: 31 }],
      "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
    ],
    [
      "an unknown failurePolicy",
      [{ ...base, failurePolicy: "Maybe" }],
      'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
    ],
    [
      "an unknown matchPolicy",
      [{ ...base, matchPolicy: "Maybe" }],
      'webhooks[0].matchPolicy: Unsupported value: "Maybe": supported values: "Equivalent", "Exact"',
    ],
    [
      "an unknown scope",
      [rule({ scope: "Maybe" })],
      'webhooks[0].rules[0].scope: Unsupported value: "Maybe": supported values: "*", "Cluster", "Namespaced"',
    ],
    [
      "a rule without operations",
      [rule({ operations: [] })],
      "webhooks[0].rules[0].operations: Required value",
    ],
    [
      "an unknown operation",
      [rule({ operations: ["GET"] })],
      'webhooks[0].rules[0].operations[0]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    ],
    [
      "'*' with other operations",
      [rule({ operations: ["*", "CREATE"] })],
      `webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if '*' is present, must not specify other operations`,
    ],
    [
      "'*' with other resources",
      [rule({ resources: ["*", "pods"] })],
      `webhooks[0].rules[0].resources: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources without subresources`,
    ],
    [
      "an unknown selector operator",
      [{ ...base, namespaceSelector: { matchExpressions: [{ key: "a", operator: "Maybe" }] } }],
      'webhooks[0].namespaceSelector.matchExpressions[0].operator: Invalid value: "Maybe": not a valid selector operator',
    ],
    [
      "an unknown reinvocationPolicy",
      [{ ...base, reinvocationPolicy: "Maybe" }],
      'webhooks[0].reinvocationPolicy: Unsupported value: "Maybe": supported values: "IfNeeded", "Never"',
      "mutating",
    ],
    [
      "a matchCondition that is not a bool",
      [{ ...base, matchConditions: [{ name: "a", expression: "'x'" }] }],
      `webhooks[0].matchConditions[0].expression: Invalid value: "'x'": must evaluate to bool but got string`,
    ],
    [
      "a matchCondition whose type is not known to be bool",
      [{ ...base, matchConditions: [{ name: "a", expression: "object.data.enabled" }] }],
      `webhooks[0].matchConditions[0].expression: Invalid value: "object.data.enabled": must evaluate to bool but got dyn`,
    ],
    [
      "a matchCondition reading a field AdmissionRequest does not have",
      [{ ...base, matchConditions: [{ name: "a", expression: "request.nmae == 'x'" }] }],
      `webhooks[0].matchConditions[0].expression: Invalid value: "request.nmae == 'x'": compilation failed: ERROR: <input>:1:8: undefined field 'nmae'\n | request.nmae == 'x'\n | .......^`,
    ],
    [
      "duplicate matchCondition names",
      [
        {
          ...base,
          matchConditions: [
            { name: "a", expression: "true" },
            { name: "a", expression: "true" },
          ],
        },
      ],
      'webhooks[0].matchConditions[1].name: Duplicate value: "a"',
    ],
  ];
  for (const [what, webhooks, message, kind = "validating"] of invalid) {
    it(`refuse ${what}`, async () => {
      const { name, res } = await create(kind, webhooks);
      expect(res.status).toBe(422);
      const Kind = kind === "validating" ? "ValidatingWebhookConfiguration" : "MutatingWebhookConfiguration";
      expect(res.json.message).toBe(`${Kind}.admissionregistration.k8s.io "${name}" is invalid: ${message}`);
    });
  }

  it("refuse a matchCondition that does not compile", async () => {
    const { res } = await create("validating", [
      { ...base, matchConditions: [{ name: "a", expression: "1 +" }] },
    ]);
    expect(res.status).toBe(422);
    expect(res.json.message).toContain(
      `webhooks[0].matchConditions[0].expression: Invalid value: "1 +": compilation failed: ERROR: <input>:1:4: Syntax error: `,
    );
  });
});
