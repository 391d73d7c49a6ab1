/** Spec cases for networking.k8s.io: NetworkPolicy, Ingress, IngressClass, IPAddress, ServiceCIDR. */
import type { Fixtures } from "../kinds.js";
import { int, pick, type Random, type SpecGroup, type SpecVariant, selectorVariants, word } from "./types.js";

const G = "networking.k8s.io";

function networkPolicies(rnd: Random): SpecVariant[] {
  const w = () => word(rnd);
  const spec = (s: Record<string, unknown>) => ({ spec: { podSelector: {}, ...s } });
  const port = int(rnd, 1, 65535);
  const from = (peer: unknown) => spec({ ingress: [{ from: [peer] }] });
  const out: SpecVariant[] = [
    ["valid-empty", spec({})],
    [
      "valid-rule",
      spec({
        ingress: [
          { ports: [{ port, protocol: "TCP" }], from: [{ podSelector: { matchLabels: { a: w() } } }] },
        ],
      }),
    ],
    ["port-zero", spec({ ingress: [{ ports: [{ port: 0 }] }] })],
    ["port-high", spec({ egress: [{ ports: [{ port: 70000 }] }] })],
    ["port-name", spec({ ingress: [{ ports: [{ port: w() }] }] })],
    ["port-bad-name", spec({ ingress: [{ ports: [{ port: `${w()}--X` }] }] })],
    ["port-protocol-bad", spec({ ingress: [{ ports: [{ protocol: "ICMP" }] }] })],
    ["end-port-valid", spec({ ingress: [{ ports: [{ port: 80, endPort: 90 }] }] })],
    ["end-port-below", spec({ ingress: [{ ports: [{ port: 90, endPort: 80 }] }] })],
    ["end-port-named", spec({ ingress: [{ ports: [{ port: "http", endPort: 80 }] }] })],
    ["end-port-alone", spec({ ingress: [{ ports: [{ endPort: 80 }] }] })],
    ["peer-empty", from({})],
    ["peer-ipblock", from({ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } })],
    ["peer-ipblock-and-pods", from({ ipBlock: { cidr: "10.0.0.0/8" }, podSelector: {} })],
    ["peer-ipblock-no-cidr", from({ ipBlock: { cidr: "" } })],
    [
      "peer-ipblock-bad-cidr",
      from({
        ipBlock: { cidr: pick(rnd, ["10.0.0.1/8", "010.0.0.0/8", "x", "10.0.0.0/33", "::ffff:1.2.3.0/120"]) },
      }),
    ],
    ["peer-except-outside", from({ ipBlock: { cidr: "10.0.0.0/16", except: ["11.0.0.0/24"] } })],
    ["peer-except-same", from({ ipBlock: { cidr: "10.0.0.0/16", except: ["10.0.0.0/16"] } })],
    ["peer-ipv6", from({ ipBlock: { cidr: "2001:db8::/32", except: ["2001:db8:1::/48"] } })],
    ["peer-ipv6-upper", from({ ipBlock: { cidr: "2001:DB8::/32" } })],
    ["policy-types-bad", spec({ policyTypes: ["Ingress", w()] })],
    ["policy-types-three", spec({ policyTypes: ["Ingress", "Egress", "Ingress"] })],
    ["policy-types-egress", spec({ policyTypes: ["Egress"] })],
    ["no-spec", {}],
  ];
  for (const [v, sel] of selectorVariants(rnd)) out.push([`pod-${v}`, spec({ podSelector: sel })]);
  for (const [v, sel] of selectorVariants(rnd).slice(2, 6))
    out.push([`peer-ns-${v}`, from({ namespaceSelector: sel })]);
  return out;
}

function ingresses(rnd: Random): SpecVariant[] {
  const w = () => word(rnd);
  const svc = (port: Record<string, unknown>, name = w()) => ({ service: { name, port } });
  const rule = (path: Record<string, unknown>, host?: string) => ({
    spec: { rules: [{ ...(host === undefined ? {} : { host }), http: { paths: [path] } }] },
  });
  const path = (p: string, pathType: string | undefined, backend: unknown = svc({ number: 80 })) => ({
    path: p,
    ...(pathType ? { pathType } : {}),
    backend,
  });
  return [
    ["valid-default-backend", { spec: { defaultBackend: svc({ number: int(rnd, 1, 65535) }) } }],
    ["valid-rule", rule(path(`/${w()}`, "Prefix"), `${w()}.example.com`)],
    ["no-rules-no-backend", { spec: {} }],
    ["no-spec", {}],
    ["backend-both-ports", { spec: { defaultBackend: svc({ number: 80, name: "http" }) } }],
    ["backend-no-port", { spec: { defaultBackend: svc({}) } }],
    ["backend-port-name-bad", { spec: { defaultBackend: svc({ name: "Http_X" }) } }],
    ["backend-port-high", { spec: { defaultBackend: svc({ number: 70000 }) } }],
    ["backend-service-upper", { spec: { defaultBackend: svc({ number: 80 }, "Svc") } }],
    ["backend-service-digit", { spec: { defaultBackend: svc({ number: 80 }, `1${w()}`) } }],
    ["backend-none", { spec: { defaultBackend: {} } }],
    [
      "backend-resource",
      { spec: { defaultBackend: { resource: { apiGroup: "example.com", kind: "Bucket", name: w() } } } },
    ],
    ["backend-resource-bad", { spec: { defaultBackend: { resource: { kind: "", name: "a/b" } } } }],
    [
      "backend-both",
      { spec: { defaultBackend: { ...svc({ number: 80 }), resource: { kind: "K", name: "n" } } } },
    ],
    ["host-ip", rule(path("/", "Prefix"), "10.1.2.3")],
    ["host-wildcard", rule(path("/", "Prefix"), `*.${w()}.com`)],
    ["host-bad-wildcard", rule(path("/", "Prefix"), `${w()}.*.com`)],
    ["host-upper", rule(path("/", "Prefix"), "Example.com")],
    ["path-relative", rule(path(w(), "Exact"))],
    ["path-double-slash", rule(path(`/${w()}//x`, "Prefix"))],
    ["path-dot-dot", rule(path(`/${w()}/..`, "Prefix"))],
    ["path-encoded-slash", rule(path("/a%2fb", "Exact"))],
    ["path-impl-relative", rule(path(w(), "ImplementationSpecific"))],
    ["path-impl-empty", rule(path("", "ImplementationSpecific"))],
    ["path-type-bad", rule(path("/", w()))],
    ["path-type-missing", rule(path("/", undefined))],
    ["http-no-paths", { spec: { rules: [{ host: "a.com", http: { paths: [] } }] } }],
    [
      "tls-valid",
      { spec: { defaultBackend: svc({ number: 80 }), tls: [{ hosts: [`${w()}.com`], secretName: w() }] } },
    ],
    [
      "tls-bad",
      {
        spec: { defaultBackend: svc({ number: 80 }), tls: [{ hosts: ["Bad Host"], secretName: "Bad_Name" }] },
      },
    ],
    ["class-bad", { spec: { ingressClassName: "Bad Class", defaultBackend: svc({ number: 80 }) } }],
  ];
}

function ingressClasses(rnd: Random): SpecVariant[] {
  const w = () => word(rnd);
  const params = (p: Record<string, unknown>) => ({ spec: { controller: "example.com/c", parameters: p } });
  return [
    ["valid", { spec: { controller: `${w()}.io/${w()}` } }],
    ["no-controller", { spec: {} }],
    ["controller-no-domain", { spec: { controller: w() } }],
    ["controller-upper-domain", { spec: { controller: "Example.com/x" } }],
    ["controller-bad-path", { spec: { controller: "example.com/a b" } }],
    ["controller-long", { spec: { controller: `example.com/${"a".repeat(250)}` } }],
    ["params-cluster", params({ kind: "K", name: w() })],
    ["params-namespace", params({ kind: "K", name: w(), scope: "Namespace", namespace: "default" })],
    ["params-namespace-missing", params({ kind: "K", name: w(), scope: "Namespace" })],
    ["params-namespace-bad", params({ kind: "K", name: w(), scope: "Namespace", namespace: "Bad_NS" })],
    ["params-cluster-with-ns", params({ kind: "K", name: w(), scope: "Cluster", namespace: "x" })],
    ["params-bad-scope", params({ kind: "K", name: w(), scope: "Everywhere" })],
    ["params-no-kind", params({ name: w() })],
    ["params-bad-group", params({ apiGroup: "Bad Group", kind: "K", name: "n" })],
  ];
}

function ipAddresses(rnd: Random, fx: Fixtures): SpecVariant[] {
  const w = () => word(rnd);
  const ref = { group: "", resource: "services", name: w(), namespace: fx.ns };
  return [
    ["valid", { spec: { parentRef: ref } }],
    ["no-parent", { spec: {} }],
    ["no-spec", {}],
    ["parent-no-resource", { spec: { parentRef: { ...ref, resource: "" } } }],
    ["parent-no-name", { spec: { parentRef: { ...ref, name: "" } } }],
    ["parent-bad-group", { spec: { parentRef: { ...ref, group: "Bad Group" } } }],
    ["parent-name-slash", { spec: { parentRef: { ...ref, name: "a/b" } } }],
    ["parent-namespace-dots", { spec: { parentRef: { ...ref, namespace: ".." } } }],
  ];
}

function serviceCidrs(rnd: Random): SpecVariant[] {
  const octet = int(rnd, 1, 250);
  return [
    ["valid-v4", { spec: { cidrs: [`10.${octet}.0.0/16`] } }],
    ["valid-dual", { spec: { cidrs: [`10.${octet}.0.0/16`, "2001:db8::/112"] } }],
    ["empty", { spec: { cidrs: [] } }],
    ["no-spec", {}],
    ["three", { spec: { cidrs: ["10.0.0.0/16", "10.1.0.0/16", "10.2.0.0/16"] } }],
    ["same-family", { spec: { cidrs: ["10.0.0.0/16", "10.1.0.0/16"] } }],
    ["bits-set", { spec: { cidrs: [`10.${octet}.0.1/16`] } }],
    ["leading-zero", { spec: { cidrs: ["010.0.0.0/16"] } }],
    ["ipv6-upper", { spec: { cidrs: ["2001:DB8::/112"] } }],
    ["not-cidr", { spec: { cidrs: ["10.0.0.0"] } }],
    ["mapped", { spec: { cidrs: ["::ffff:10.0.0.0/104"] } }],
  ];
}

export const networking: SpecGroup = {
  name: "networking",
  kinds: [
    { id: `${G}/networkpolicies`, variants: networkPolicies },
    { id: `${G}/ingresses`, variants: ingresses },
    { id: `${G}/ingressclasses`, variants: ingressClasses },
    { id: `${G}/ipaddresses`, name: "10.9.200.1", variants: ipAddresses },
    { id: `${G}/servicecidrs`, variants: serviceCidrs },
  ],
};
