/**
 * EndpointSlices: a known address type (immutable), ports with unique DNS-label names and a known
 * protocol, and at most 1000 endpoints checked by endpoint-rules.ts (an update that leaves the
 * endpoints as they were is not refused for them). Ports are TCP and unnamed by default.
 */
import type { FieldError } from "../../api/status.js";
import {
  arr,
  duplicate,
  FieldErrors,
  immutable,
  invalid,
  isSet,
  type Json,
  notSupported,
  obj,
  required,
  sameValue,
  str,
  tooMany,
} from "../../validation/field-errors.js";
import { dns1123LabelProblems } from "../../validation/name-formats.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";
import { generationCounts } from "../generation-bump.js";
import type { KindStrategy } from "../strategy.js";
import { endpointErrors } from "./endpoint-rules.js";

const ADDRESS_TYPES = ["FQDN", "IPv4", "IPv6"];
const PROTOCOLS = ["SCTP", "TCP", "UDP"];
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;

function portErrors(ports: unknown[], out: FieldErrors): void {
  if (ports.length > MAX_PORTS) {
    out.add(tooMany("ports", ports.length, MAX_PORTS));
    return;
  }
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const port = obj(p);
    const field = `ports[${i}]`;
    const name = str(port.name);
    if (name !== "") out.add(...dns1123LabelProblems(name).map((m) => invalid(`${field}.name`, name, m)));
    if (names.has(name)) out.add(duplicate(`${field}.name`, name));
    names.add(name);
    if (!isSet(port.protocol)) out.add(required(`${field}.protocol`));
    else if (!PROTOCOLS.includes(str(port.protocol)))
      out.add(notSupported(`${field}.protocol`, str(port.protocol), PROTOCOLS));
    if (isSet(port.appProtocol)) {
      const app = str(port.appProtocol);
      out.add(...qualifiedNameProblems(app).map((m) => invalid(`${field}.appProtocol`, app, m)));
    }
  });
}

function endpointSliceErrors(slice: Json, old: Json | undefined): FieldError[] {
  const out = new FieldErrors();
  const addressType = str(slice.addressType);
  if (addressType === "") out.covered(required("addressType"));
  else if (!ADDRESS_TYPES.includes(addressType))
    out.covered(notSupported("addressType", addressType, ADDRESS_TYPES));
  portErrors(arr(slice.ports), out);
  const endpoints = arr(slice.endpoints);
  if (!(old && sameValue(old.endpoints, slice.endpoints))) {
    if (endpoints.length > MAX_ENDPOINTS) out.add(tooMany("endpoints", endpoints.length, MAX_ENDPOINTS));
    else
      endpoints.forEach((ep, i) => {
        endpointErrors(obj(ep), addressType, `endpoints[${i}]`, out);
      });
  }
  if (old && addressType !== str(old.addressType)) out.covered(immutable("addressType", null));
  return out.list();
}

export const endpointslices: KindStrategy = {
  group: "discovery.k8s.io",
  resource: "endpointslices",
  // Generation 1 at create, one more for an update of anything but metadata (there is no status)
  // or of the labels.
  tracksGeneration: true,
  prepareUpdate: generationCounts("labels"),
  // discovery/v1 defaulting: a port is unnamed and TCP unless it says otherwise.
  defaults(slice) {
    for (const p of arr(slice.ports)) {
      if (typeof p !== "object" || p === null) continue;
      const port = p as Json;
      if (!isSet(port.name)) port.name = "";
      if (!isSet(port.protocol)) port.protocol = "TCP";
    }
  },
  validate: endpointSliceErrors,
};
