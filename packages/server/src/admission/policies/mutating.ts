import type { AdmissionPlugin } from "../plugin.js";

export function mutatingAdmissionPolicy(): AdmissionPlugin {
  return { name: "MutatingAdmissionPolicy", handles: () => true };
}
