/** Spec cases of core/v1 Services and Endpoints. */
import { type Body, pick, type Random, type SpecKindCases, word } from "./types.js";

const svc = (spec: Body): Body => ({ spec });

function serviceVariants(rnd: Random): [string, Body][] {
  const port = 1 + Math.floor(rnd() * 65535);
  return [
    ["valid-plain", svc({ ports: [{ port }], selector: { app: "x" } })],
    [
      "valid-named-ports",
      svc({
        ports: [
          { name: "a", port: 80 },
          { name: "b", port: 81, targetPort: "http" },
        ],
      }),
    ],
    ["valid-external-name", svc({ type: "ExternalName", externalName: "example.com." })],
    ["valid-headless-no-ports", svc({ clusterIP: "None" })],
    ["valid-node-port", svc({ type: "NodePort", ports: [{ port: 80 }] })],
    ["ports-missing", svc({})],
    ["port-zero", svc({ ports: [{ port: 0 }] })],
    ["port-high", svc({ ports: [{ port: 70000 }] })],
    ["port-protocol", svc({ ports: [{ port: 80, protocol: "ICMP" }] })],
    ["port-name-missing-of-two", svc({ ports: [{ port: 80 }, { name: "b", port: 81 }] })],
    ["port-name-invalid", svc({ ports: [{ name: "Bad_Name", port: 80 }] })],
    [
      "port-name-duplicate",
      svc({
        ports: [
          { name: "a", port: 80 },
          { name: "a", port: 81 },
        ],
      }),
    ],
    [
      "port-duplicate",
      svc({
        ports: [
          { name: "a", port: 80 },
          { name: "b", port: 80 },
        ],
      }),
    ],
    ["target-port-name-invalid", svc({ ports: [{ port: 80, targetPort: "BAD_NAME" }] })],
    ["target-port-high", svc({ ports: [{ port: 80, targetPort: 70000 }] })],
    ["app-protocol-invalid", svc({ ports: [{ port: 80, appProtocol: "a/b/c" }] })],
    ["type-unknown", svc({ type: pick(rnd, ["Blue", "clusterip"]), ports: [{ port: 80 }] })],
    ["session-affinity-unknown", svc({ sessionAffinity: "Sticky", ports: [{ port: 80 }] })],
    [
      "session-affinity-config-none",
      svc({
        sessionAffinity: "None",
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } },
        ports: [{ port: 80 }],
      }),
    ],
    ["selector-invalid", svc({ selector: { "-a": "b" }, ports: [{ port: 80 }] })],
    ["selector-value-invalid", svc({ selector: { a: `${word(rnd)}!` }, ports: [{ port: 80 }] })],
    ["cluster-ip-node-port", svc({ ports: [{ port: 80, nodePort: 30000 + Math.floor(rnd() * 2000) }] })],
    ["external-name-missing", svc({ type: "ExternalName" })],
    ["external-name-invalid", svc({ type: "ExternalName", externalName: "Bad_Name" })],
    [
      "external-name-with-cluster-ip",
      svc({ type: "ExternalName", externalName: "a.b", clusterIP: "10.0.0.9" }),
    ],
    ["allocate-lb-ports-cluster-ip", svc({ allocateLoadBalancerNodePorts: true, ports: [{ port: 80 }] })],
  ];
}

function endpointsVariants(rnd: Random): [string, Body][] {
  const ip = `10.${Math.floor(rnd() * 250)}.${Math.floor(rnd() * 250)}.${1 + Math.floor(rnd() * 250)}`;
  const subset = (extra: Body) => ({ subsets: [{ addresses: [{ ip }], ports: [{ port: 80 }], ...extra }] });
  return [
    ["valid-plain", subset({})],
    ["valid-not-ready", { subsets: [{ notReadyAddresses: [{ ip }] }] }],
    ["valid-ipv6", subset({ addresses: [{ ip: "2001:db8::5" }] })],
    ["subset-empty", { subsets: [{}] }],
    ["ip-invalid", subset({ addresses: [{ ip: "abc" }] })],
    ["ip-loopback", subset({ addresses: [{ ip: "127.0.0.1" }] })],
    ["ip-unspecified", subset({ addresses: [{ ip: "0.0.0.0" }] })],
    ["ip-link-local", subset({ addresses: [{ ip: "169.254.1.1" }] })],
    ["ip-multicast", subset({ addresses: [{ ip: "224.0.0.5" }] })],
    ["ip-ipv6-loopback", subset({ addresses: [{ ip: "::1" }] })],
    ["ip-leading-zero", subset({ addresses: [{ ip: "10.01.2.3" }] })],
    ["ip-mapped", subset({ addresses: [{ ip: "::ffff:10.1.2.3" }] })],
    ["hostname-invalid", subset({ addresses: [{ ip, hostname: "A.b" }] })],
    ["node-name-invalid", subset({ addresses: [{ ip, nodeName: "Bad_Node" }] })],
    ["port-zero", subset({ ports: [{ port: 0 }] })],
    ["port-names-missing", subset({ ports: [{ port: 80 }, { port: 81 }] })],
    ["port-protocol", subset({ ports: [{ port: 80, protocol: "X" }] })],
  ];
}

export const coreServiceVariants: readonly SpecKindCases[] = [
  { id: "core/services", variants: serviceVariants },
  { id: "core/endpoints", variants: endpointsVariants },
];
