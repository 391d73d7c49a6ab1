import { afterAll, beforeAll, describe, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";
import { checkRow, DNS_LABEL, DNS_SUBDOMAIN, type SpecRow } from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const ES = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices";
const meta = { name: "v" };

const ROWS: SpecRow[] = [
  {
    name: "IPv4 endpoints with a default port",
    path: ES,
    body: {
      metadata: meta,
      addressType: "IPv4",
      ports: [{ port: 80 }],
      endpoints: [{ addresses: ["10.1.2.3"] }],
    },
    causes: [],
  },
  {
    name: "addresses an endpoint may not have, ports with bad names and protocols",
    path: ES,
    body: {
      metadata: meta,
      addressType: "IPv4",
      ports: [{ name: "Bad", protocol: "ICMP" }],
      endpoints: [
        { addresses: [] },
        { addresses: ["127.0.0.1", "0.0.0.0", "169.254.1.1", "::1"], nodeName: "N" },
      ],
    },
    causes: [
      `ports[0].name | FieldValueInvalid | Invalid value: "Bad": ${DNS_LABEL}`,
      'ports[0].protocol | FieldValueNotSupported | Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      'endpoints[1].addresses[0] | FieldValueInvalid | Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'endpoints[1].addresses[1] | FieldValueInvalid | Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      'endpoints[1].addresses[2] | FieldValueInvalid | Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'endpoints[1].addresses | FieldValueInvalid | Invalid value: "::1": must be an IPv4 address',
      'endpoints[1].addresses[3] | FieldValueInvalid | Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      `endpoints[1].nodeName | FieldValueInvalid | Invalid value: "N": ${DNS_SUBDOMAIN}`,
      "endpoints[0].addresses | FieldValueRequired | Required value",
    ],
  },
  {
    name: "an unknown address type",
    path: ES,
    body: { metadata: meta, addressType: "IPv5" },
    causes: [
      'addressType | FieldValueNotSupported | Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"',
    ],
  },
  {
    name: "FQDN addresses of one label",
    path: ES,
    body: { metadata: meta, addressType: "FQDN", endpoints: [{ addresses: ["foo"] }] },
    causes: [
      'endpoints[0].addresses[0] | FieldValueInvalid | Invalid value: "foo": should be a domain with at least two segments separated by dots',
    ],
  },
];

describe("EndpointSlice spec validation (dryRun=All creates)", () => {
  it.each(ROWS)("$name", async (row) => {
    await checkRow(t, row);
  });
});
