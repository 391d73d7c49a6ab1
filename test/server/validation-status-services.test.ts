/**
 * Service and ResourceQuota /status writes are validated as kube-apiserver 1.37 validates them
 * (ValidateServiceStatusUpdate, ValidateResourceQuotaStatusUpdate): load-balancer ingress only on
 * LoadBalancer services, valid addresses and IP modes; quota resource names and quantities in the
 * reported limits and usage.
 */
import { describeStatusRows, type StatusRow } from "./status-validation-cases.js";

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const ROWS: StatusRow[] = [
  {
    name: "a load balancer's addresses, the IP mode defaulted",
    kind: "loadbalancer",
    status: { loadBalancer: { ingress: [{ ip: "192.0.2.1" }, { hostname: "lb.example.com" }] } },
    causes: [],
  },
  {
    name: "ingress on a ClusterIP service",
    kind: "service",
    status: { loadBalancer: { ingress: [{ ip: "not-an-ip" }] } },
    causes: [
      "status.loadBalancer.ingress | FieldValueForbidden | Forbidden: may only be used when `spec.type` is 'LoadBalancer'",
    ],
  },
  {
    name: "bad addresses and IP modes",
    kind: "loadbalancer",
    status: {
      loadBalancer: {
        ingress: [
          { ip: "192.0.2.01", ipMode: "Proxy" },
          { hostname: "10.0.0.1", ipMode: "VIP" },
          { ip: "192.0.2.2", ipMode: "Direct" },
          { hostname: "Bad_Host" },
        ],
      },
    },
    causes: [
      'status.loadBalancer.ingress[0].ip | FieldValueInvalid | Invalid value: "192.0.2.01": must not have leading 0s',
      'status.loadBalancer.ingress[1].hostname | FieldValueInvalid | Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      "status.loadBalancer.ingress[1].ipMode | FieldValueForbidden | Forbidden: may not be specified when `ip` is not set",
      'status.loadBalancer.ingress[2].ipMode | FieldValueNotSupported | Unsupported value: "Direct": supported values: "Proxy", "VIP"',
      `status.loadBalancer.ingress[3].hostname | FieldValueInvalid | Invalid value: "Bad_Host": ${SUBDOMAIN}`,
    ],
  },
  {
    name: "a stored address beside a new one",
    kind: "loadbalancer",
    before: { loadBalancer: { ingress: [{ ip: "192.0.2.1" }] } },
    status: { loadBalancer: { ingress: [{ ip: "192.0.2.1" }, { ip: "192.0.2.3" }] } },
    causes: [],
  },
  {
    name: "a quota's reported limits and usage",
    kind: "resourcequota",
    status: { hard: { pods: "10", "requests.cpu": "2" }, used: { pods: "3", "requests.cpu": "500m" } },
    causes: [],
  },
  {
    name: "bad quota names and quantities in status",
    kind: "resourcequota",
    status: { hard: { pods: "-1", widgets: "1" }, used: { pods: "1500m", "bad name": "1" } },
    causes: [
      'status.hard[pods] | FieldValueInvalid | Invalid value: "-1": must be greater than or equal to 0',
      'status.hard[widgets] | FieldValueInvalid | Invalid value: "widgets": must be a standard resource type or fully qualified',
      'status.hard[widgets] | FieldValueInvalid | Invalid value: "widgets": must be a standard resource for quota',
      'status.used[pods] | FieldValueInvalid | Invalid value: "1500m": must be an integer',
      `status.used[bad name] | FieldValueInvalid | Invalid value: "bad name": ${NAME_PART}`,
      'status.used[bad name] | FieldValueInvalid | Invalid value: "bad name": must be a standard resource for quota',
    ],
  },
];

describeStatusRows("Service and ResourceQuota status validation (dryRun=All /status writes)", ROWS);
