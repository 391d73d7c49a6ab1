/**
 * Issue 31: a pod's DNS config and host aliases, and its containers' lifecycle hooks (and probe
 * handlers and header names).
 * Each row is sent with dryRun=All and answered as kube-apiserver 1.37 answers it; the broader
 * comparison is `pnpm diff:server` (scripts/differential/specs/pod-env-bodies.ts).
 */
import { describe, expect, it } from "vitest";
import { type PodRow, podValidationSuite, podWith } from "./pod-validation-suite.js";
import { DNS_SUBDOMAIN } from "./spec-validation-cases.js";

const { itAnswersPods, target, podPath } = podValidationSuite("val-podhooks");

const UNDERSCORE_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')";
const BAD_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

const ROWS: PodRow[] = [
  [
    "dnsPolicy None without dnsConfig",
    { dnsPolicy: "None" },
    {},
    ["dnsConfig | FieldValueRequired | Required value: must provide `dnsConfig` when `dnsPolicy` is None"],
  ],
  [
    "dnsPolicy None without nameservers",
    { dnsPolicy: "None", dnsConfig: { searches: ["a"] } },
    {},
    [
      "dnsConfig.nameservers | FieldValueRequired | Required value: must provide at least one DNS nameserver when `dnsPolicy` is None",
    ],
  ],
  [
    "bad nameservers, searches and options",
    {
      dnsConfig: {
        nameservers: ["1.1.1.1", "x", "::1", "8.8.8.8"],
        searches: ["Bad_x", "a.b.", "", "."],
        options: [{ name: "" }, { value: "x" }, { name: "ndots", value: "2" }],
      },
    },
    {},
    [
      'dnsConfig.nameservers | FieldValueInvalid | Invalid value: ["1.1.1.1","x","::1","8.8.8.8"]: must not have more than 3 nameservers',
      `dnsConfig.nameservers[1] | FieldValueInvalid | Invalid value: "x": ${BAD_IP}`,
      `dnsConfig.searches[0] | FieldValueInvalid | Invalid value: "Bad_x": ${UNDERSCORE_SUBDOMAIN}`,
      `dnsConfig.searches[2] | FieldValueInvalid | Invalid value: "": ${UNDERSCORE_SUBDOMAIN}`,
      "dnsConfig.options[0] | FieldValueRequired | Required value: must not be empty",
      "dnsConfig.options[1] | FieldValueRequired | Required value: must not be empty",
    ],
  ],
  [
    "33 search domains",
    {
      dnsConfig: {
        searches: [
          "a1",
          "a2",
          "a3",
          "a4",
          "a5",
          "a6",
          "a7",
          "a8",
          "a9",
          "a10",
          "a11",
          "a12",
          "a13",
          "a14",
          "a15",
          "a16",
          "a17",
          "a18",
          "a19",
          "a20",
          "a21",
          "a22",
          "a23",
          "a24",
          "a25",
          "a26",
          "a27",
          "a28",
          "a29",
          "a30",
          "a31",
          "a32",
          "a33",
        ],
      },
    },
    {},
    [
      'dnsConfig.searches | FieldValueInvalid | Invalid value: ["a1","a2","a3","a4","a5","a6","a7","a8","a9","a10","a11","a12","a13","a14","a15","a16","a17","a18","a19","a20","a21","a22","a23","a24","a25","a26","a27","a28","a29","a30","a31","a32","a33"]: must not have more than 32 search paths',
    ],
  ],
  [
    "search domains with underscores",
    { dnsConfig: { searches: ["_tcp.example.com", "a..b", "-a"] } },
    {},
    [
      `dnsConfig.searches[1] | FieldValueInvalid | Invalid value: "a..b": ${UNDERSCORE_SUBDOMAIN}`,
      `dnsConfig.searches[2] | FieldValueInvalid | Invalid value: "-a": ${UNDERSCORE_SUBDOMAIN}`,
    ],
  ],
  [
    "a search domain over 253 characters",
    {
      dnsConfig: {
        searches: [
          "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ],
      },
    },
    {},
    [
      'dnsConfig.searches[0] | FieldValueInvalid | Invalid value: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": must be no more than 253 characters',
    ],
  ],
  [
    "nameservers in non-strict IP forms",
    { dnsConfig: { nameservers: ["::ffff:1.2.3.4", "1.2.3.04", "2001:DB8::1"] } },
    {},
    [
      'dnsConfig.nameservers[0] | FieldValueInvalid | Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address',
      'dnsConfig.nameservers[1] | FieldValueInvalid | Invalid value: "1.2.3.04": must not have leading 0s',
    ],
  ],
  [
    "bad host aliases",
    {
      hostAliases: [
        { ip: "1.2.3.4", hostnames: ["a.b", "Bad_Host"] },
        { ip: "x" },
        { hostnames: ["ok"] },
        { ip: "01.2.3.4" },
      ],
    },
    {},
    [
      `hostAliases[0].hostnames[1] | FieldValueInvalid | Invalid value: "Bad_Host": ${DNS_SUBDOMAIN}`,
      `hostAliases[1].ip | FieldValueInvalid | Invalid value: "x": ${BAD_IP}`,
      `hostAliases[2].ip | FieldValueInvalid | Invalid value: "": ${BAD_IP}`,
      'hostAliases[3].ip | FieldValueInvalid | Invalid value: "01.2.3.4": must not have leading 0s',
    ],
  ],
  [
    "valid lifecycle hooks",
    {},
    { lifecycle: { postStart: { exec: { command: ["a"] } }, preStop: { sleep: { seconds: 5 } } } },
    [],
  ],
  [
    "hooks with no or two handlers",
    {},
    { lifecycle: { postStart: {}, preStop: { exec: { command: ["a"] }, httpGet: { port: 80 } } } },
    [
      "containers[0].lifecycle.postStart | FieldValueRequired | Required value: must specify a handler type",
      "containers[0].lifecycle.preStop.httpGet | FieldValueForbidden | Forbidden: may not specify more than 1 handler type",
    ],
  ],
  [
    "sleep hooks outside the grace period",
    { terminationGracePeriodSeconds: 10 },
    { lifecycle: { preStop: { sleep: { seconds: 11 } }, postStart: { sleep: { seconds: -1 } } } },
    [
      "containers[0].lifecycle.postStart.sleep | FieldValueInvalid | Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds (10)",
      "containers[0].lifecycle.preStop.sleep | FieldValueInvalid | Invalid value: 11: must be non-negative and less than terminationGracePeriodSeconds (10)",
    ],
  ],
  ["a zero sleep hook", {}, { lifecycle: { preStop: { sleep: { seconds: 0 } } } }, []],
  [
    "bad HTTP GET and TCP hooks",
    {},
    {
      lifecycle: {
        preStop: { httpGet: { port: 0, scheme: "FTP", httpHeaders: [{ name: "a b", value: "x" }] } },
        postStart: { tcpSocket: { port: "Bad_Name" } },
      },
    },
    [
      'containers[0].lifecycle.postStart.tcpSocket.port | FieldValueInvalid | Invalid value: "Bad_Name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      "containers[0].lifecycle.preStop.httpGet.port | FieldValueInvalid | Invalid value: 0: must be between 1 and 65535, inclusive",
      'containers[0].lifecycle.preStop.httpGet.scheme | FieldValueNotSupported | Unsupported value: "FTP": supported values: "HTTP", "HTTPS"',
      "containers[0].lifecycle.preStop.httpGet.httpHeaders | FieldValueInvalid | Invalid value: \"a b\": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')",
    ],
  ],
  [
    "a gRPC hook",
    {},
    { lifecycle: { preStop: { grpc: { port: 80 } } } },
    ["containers[0].lifecycle.preStop | FieldValueRequired | Required value: must specify a handler type"],
  ],
  [
    "a sleep over the default grace period",
    {},
    { lifecycle: { preStop: { sleep: { seconds: 31 } } } },
    [
      "containers[0].lifecycle.preStop.sleep | FieldValueInvalid | Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30)",
    ],
  ],
  [
    "a sleep probe",
    {},
    { livenessProbe: { sleep: { seconds: 1 } } },
    ["containers[0].livenessProbe | FieldValueRequired | Required value: must specify a handler type"],
  ],
  [
    "bad probe header names",
    {},
    {
      livenessProbe: {
        httpGet: {
          port: 80,
          httpHeaders: [
            { name: "a b", value: "x" },
            { name: "", value: "y" },
          ],
        },
      },
    },
    [
      "containers[0].livenessProbe.httpGet.httpHeaders | FieldValueInvalid | Invalid value: \"a b\": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')",
      "containers[0].livenessProbe.httpGet.httpHeaders | FieldValueInvalid | Invalid value: \"\": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')",
    ],
  ],
];

describe("DNS config, host aliases and lifecycle hooks", () => {
  itAnswersPods(ROWS);
  it("drops a container's stop signal (the ContainerStopSignals gate is off in 1.37)", async () => {
    const hook = { exec: { command: ["true"] } };
    const send = (lifecycle: Record<string, unknown>) =>
      target().call("POST", `${podPath()}?dryRun=All`, { body: podWith({}, { lifecycle }) });
    const withHook = await send({ stopSignal: "SIGUSR1", preStop: hook });
    expect(withHook.status).toBe(201);
    expect(withHook.json.spec.containers[0].lifecycle).toEqual({ preStop: hook });
    const alone = await send({ stopSignal: "SIGUSR1" });
    expect(alone.status).toBe(201);
    expect(alone.json.spec.containers[0].lifecycle).toBeUndefined();
  });
});
