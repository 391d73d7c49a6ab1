import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import {
  checkRow,
  createThenPut,
  DNS_LABEL,
  DNS_SUBDOMAIN,
  LABEL_VALUE,
  type SpecRow,
} from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const N = "/apis/networking.k8s.io/v1";
const NP = `${N}/namespaces/default/networkpolicies`;
const ING = `${N}/namespaces/default/ingresses`;
const meta = { name: "v" };
const svc = (port: Record<string, unknown>, name = "s") => ({ service: { name, port } });

const ROWS: SpecRow[] = [
  { name: "network policy: an empty spec", path: NP, body: { metadata: meta, spec: {} }, causes: [] },
  {
    name: "network policy: ports, peers, CIDRs and policy types",
    path: NP,
    body: {
      metadata: meta,
      spec: {
        podSelector: { matchLabels: { a: "b c" } },
        ingress: [
          {
            ports: [
              { protocol: "ICMP", port: 0, endPort: 70000 },
              { port: "http", endPort: 5 },
              { endPort: 3 },
            ],
            from: [
              {},
              {
                ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16", "11.0.0.0/24", "10.01.0.0/16"] },
                podSelector: {},
              },
              { ipBlock: { cidr: "" } },
            ],
          },
        ],
        egress: [{ to: [{ ipBlock: { cidr: "10.0.0.1/8" } }, { ipBlock: { cidr: "::ffff:1.2.3.0/120" } }] }],
        policyTypes: ["Ingress", "Foo"],
      },
    },
    causes: [
      `spec.podSelector.matchLabels | FieldValueInvalid | Invalid value: "b c": ${LABEL_VALUE}`,
      'spec.ingress[0].ports[0].protocol | FieldValueNotSupported | Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
      "spec.ingress[0].ports[0].port | FieldValueInvalid | Invalid value: 0: must be between 1 and 65535, inclusive",
      "spec.ingress[0].ports[0].endPort | FieldValueInvalid | Invalid value: 70000: must be between 1 and 65535, inclusive",
      "spec.ingress[0].ports[1].endPort | FieldValueInvalid | Invalid value: 5: may not be specified when `port` is non-numeric",
      "spec.ingress[0].ports[2].endPort | FieldValueInvalid | Invalid value: 3: may not be specified when `port` is not specified",
      "spec.ingress[0].from[0] | FieldValueRequired | Required value: must specify a peer",
      'spec.ingress[0].from[1].ipBlock.except[1] | FieldValueInvalid | Invalid value: "11.0.0.0/24": must be a strict subset of `cidr`',
      'spec.ingress[0].from[1].ipBlock.except[2] | FieldValueInvalid | Invalid value: "10.01.0.0/16": must not have leading 0s in IP or prefix length',
      "spec.ingress[0].from[1] | FieldValueForbidden | Forbidden: may not specify both ipBlock and another peer",
      "spec.ingress[0].from[2].ipBlock.cidr | FieldValueRequired | Required value",
      'spec.egress[0].to[0].ipBlock.cidr | FieldValueInvalid | Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length',
      'spec.egress[0].to[1].ipBlock.cidr | FieldValueInvalid | Invalid value: "::ffff:1.2.3.0/120": must not have an IPv4-mapped IPv6 address',
      'spec.policyTypes[1] | FieldValueNotSupported | Unsupported value: "Foo": supported values: "Ingress", "Egress"',
    ],
  },
  {
    name: "ingress: neither backend nor rules",
    path: ING,
    body: { metadata: meta, spec: {} },
    causes: [
      "spec | FieldValueInvalid | Invalid value: null: either `defaultBackend` or `rules` must be specified",
    ],
  },
  {
    name: "ingress: backends, hosts, paths, TLS and class",
    path: ING,
    body: {
      metadata: { name: "v", annotations: { "kubernetes.io/ingress.class": "a" } },
      spec: {
        ingressClassName: "b",
        defaultBackend: svc({}, "Svc"),
        rules: [
          { host: "1.2.3.4", http: { paths: [] } },
          {
            http: {
              paths: [
                { path: "a//b", pathType: "Prefix", backend: svc({ name: "http", number: 80 }) },
                { path: "/x", pathType: "Foo", backend: {} },
                { path: "/y", backend: svc({ number: 80 }) },
              ],
            },
          },
        ],
        tls: [{ hosts: ["Bad"], secretName: "Bad_Secret" }],
      },
    },
    causes: [
      `spec.defaultBackend.service.name | FieldValueInvalid | Invalid value: "Svc": ${DNS_LABEL}`,
      "spec.defaultBackend | FieldValueRequired | Required value: port name or number is required",
      'spec.rules[0].host | FieldValueInvalid | Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
      "spec.rules[0].http.paths | FieldValueRequired | Required value",
      'spec.rules[1].http.paths[0].path | FieldValueInvalid | Invalid value: "a//b": must be an absolute path',
      "spec.rules[1].http.paths[0].path | FieldValueInvalid | Invalid value: \"a//b\": must not contain '//'",
      'spec.rules[1].http.paths[0].backend | FieldValueInvalid | Invalid value: "": cannot set both port name & port number',
      'spec.rules[1].http.paths[1].pathType | FieldValueNotSupported | Unsupported value: "Foo": supported values: "Exact", "ImplementationSpecific", "Prefix"',
      'spec.rules[1].http.paths[1].backend | FieldValueInvalid | Invalid value: "": resource or service backend is required',
      "spec.rules[1].http.paths[2].pathType | FieldValueRequired | Required value: pathType must be specified",
      `spec.tls[0].hosts[0] | FieldValueInvalid | Invalid value: "Bad": ${DNS_SUBDOMAIN}`,
      `spec.tls[0].secretName | FieldValueInvalid | Invalid value: "Bad_Secret": ${DNS_SUBDOMAIN}`,
      'annotations.kubernetes.io/ingress.class | FieldValueInvalid | Invalid value: "a": must match `ingressClassName` when both are specified',
    ],
  },
  {
    name: "ingress class: controller and namespaced parameters",
    path: `${N}/ingressclasses`,
    body: {
      metadata: meta,
      spec: { controller: "nodomain", parameters: { kind: "", name: "a/b", scope: "Namespace" } },
    },
    causes: [
      'spec.controller | FieldValueInvalid | Invalid value: "nodomain": must be a domain-prefixed path (such as "acme.io/foo")',
      "spec.parameters.name | FieldValueInvalid | Invalid value: \"a/b\": may not contain '/'",
      "spec.parameters.namespace | FieldValueRequired | Required value: `parameters.scope` is set to 'Namespace'",
      "spec.parameters.kind | FieldValueRequired | Required value",
    ],
  },
  {
    name: "ingress class: parameters without a scope are cluster-scoped",
    path: `${N}/ingressclasses`,
    body: { metadata: meta, spec: { controller: "example.com/c", parameters: { kind: "K", name: "n" } } },
    causes: [],
  },
  {
    name: "IP address: a parent reference is required",
    path: `${N}/ipaddresses`,
    body: { metadata: { name: "10.1.2.3" }, spec: {} },
    causes: ["spec.parentRef | FieldValueRequired | Required value"],
  },
  {
    name: "service CIDR: canonical CIDRs, one per family",
    path: `${N}/servicecidrs`,
    body: { metadata: meta, spec: { cidrs: ["2001:DB8::/64", "2001:db8:1::/64"] } },
    causes: [
      'spec.cidrs[0] | FieldValueInvalid | Invalid value: "2001:DB8::/64": must be in canonical form ("2001:db8::/64")',
      'spec.cidrs | FieldValueInvalid | Invalid value: ["2001:DB8::/64","2001:db8:1::/64"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
    ],
  },
];

describe("networking spec validation (dryRun=All creates)", () => {
  it.each(ROWS)("$name", async (row) => {
    await checkRow(t, row);
  });

  it("an ingress class's controller is immutable", async () => {
    const res = await createThenPut(
      t,
      `${N}/ingressclasses`,
      { metadata: { name: uniqueName("ic") }, spec: { controller: "example.com/a" } },
      (ic) => ({ ...ic, spec: { controller: "example.com/b" } }),
    );
    expect(res.causes).toEqual([
      'spec.controller | FieldValueInvalid | Invalid value: "example.com/b": field is immutable',
    ]);
  });

  it("network policy defaults: TCP ports and the policy types its rules imply", async () => {
    const res = await t.call("POST", `${NP}?dryRun=All`, {
      body: { metadata: meta, spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] } },
    });
    expect(res.status).toBe(201);
    expect(res.json.spec.policyTypes).toEqual(["Ingress", "Egress"]);
    expect(res.json.spec.egress[0].ports[0].protocol).toBe("TCP");
  });

  it("an ingress's load-balancer status is checked on /status writes", async () => {
    const name = uniqueName("ing");
    const created = await t.call("POST", ING, {
      body: { metadata: { name }, spec: { defaultBackend: svc({ number: 80 }) } },
    });
    expect(created.status).toBe(201);
    const res = await t.call("PATCH", `${ING}/${name}/status`, {
      rawBody: JSON.stringify({
        status: { loadBalancer: { ingress: [{ ip: "1.2.3.04" }, { hostname: "1.2.3.4" }] } },
      }),
      contentType: "application/merge-patch+json",
    });
    await t.call("DELETE", `${ING}/${name}`);
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(
      `Ingress.networking.k8s.io "${name}" is invalid: [status.loadBalancer.ingress[0].ip: Invalid value: "1.2.3.04": must not have leading 0s, status.loadBalancer.ingress[1].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address]`,
    );
  });
});
