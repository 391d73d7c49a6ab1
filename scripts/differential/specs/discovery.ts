/** Spec cases for discovery.k8s.io: EndpointSlice address types, addresses, ports and hints. */
import { int, type Random, type SpecGroup, type SpecVariant, word } from "./types.js";

function endpointSlices(rnd: Random): SpecVariant[] {
  const w = () => word(rnd);
  const v4 = `10.${int(rnd, 0, 255)}.${int(rnd, 0, 255)}.${int(rnd, 1, 254)}`;
  const ep = (addressType: string, addresses: unknown[], extra: Record<string, unknown> = {}) => ({
    addressType,
    endpoints: [{ addresses, ...extra }],
  });
  return [
    ["valid-v4", ep("IPv4", [v4], { nodeName: w(), hostname: w(), conditions: { ready: true } })],
    ["valid-v6", ep("IPv6", ["2001:db8::1"])],
    ["valid-fqdn", ep("FQDN", [`${w()}.example.com`])],
    ["no-address-type", { endpoints: [] }],
    ["bad-address-type", { addressType: "IPv5" }],
    ["no-addresses", ep("IPv4", [])],
    ["v4-loopback", ep("IPv4", ["127.0.0.1"])],
    ["v4-unspecified", ep("IPv4", ["0.0.0.0"])],
    ["v4-link-local", ep("IPv4", ["169.254.3.4"])],
    ["v4-multicast", ep("IPv4", ["224.0.0.9"])],
    ["v4-leading-zero", ep("IPv4", ["10.01.2.3"])],
    ["v4-given-v6", ep("IPv4", ["2001:db8::1"])],
    ["v4-not-ip", ep("IPv4", [w()])],
    ["v6-given-v4", ep("IPv6", [v4])],
    ["v6-upper", ep("IPv6", ["2001:DB8::1"])],
    ["v6-loopback", ep("IPv6", ["::1"])],
    ["v6-link-local", ep("IPv6", ["fe80::1"])],
    ["fqdn-one-label", ep("FQDN", [w()])],
    ["fqdn-trailing-dot", ep("FQDN", [`${w()}.com.`])],
    ["fqdn-upper", ep("FQDN", ["Example.com"])],
    ["node-name-bad", ep("IPv4", [v4], { nodeName: "Bad Node" })],
    ["hostname-bad", ep("IPv4", [v4], { hostname: "a.b" })],
    ["hints-duplicate-zone", ep("IPv4", [v4], { hints: { forZones: [{ name: "z" }, { name: "z" }] } })],
    ["hints-bad-node", ep("IPv4", [v4], { hints: { forNodes: [{ name: "Bad Node" }] } })],
    ["port-valid", { addressType: "IPv4", ports: [{ name: w(), port: 80, protocol: "TCP" }] }],
    ["port-defaults", { addressType: "IPv4", ports: [{ port: 80 }] }],
    ["port-bad-name", { addressType: "IPv4", ports: [{ name: "Http_1", port: 80 }] }],
    [
      "port-duplicate-name",
      {
        addressType: "IPv4",
        ports: [
          { name: "a", port: 80 },
          { name: "a", port: 81 },
        ],
      },
    ],
    ["port-bad-protocol", { addressType: "IPv4", ports: [{ name: "a", protocol: "ICMP" }] }],
    ["port-bad-app-protocol", { addressType: "IPv4", ports: [{ name: "a", appProtocol: "a b" }] }],
  ];
}

export const discovery: SpecGroup = {
  name: "discovery",
  kinds: [{ id: "discovery.k8s.io/endpointslices", variants: endpointSlices }],
};
