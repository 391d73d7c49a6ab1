/**
 * Every built-in kind with behaviour of its own, one strategy file each (registry/<group>/<resource>.ts).
 * Adding a kind's behaviour is adding its file and one line here.
 */
import {
  mutatingadmissionpolicybindings,
  validatingadmissionpolicybindings,
} from "./admissionregistration/admissionpolicybindings.js";
import { mutatingadmissionpolicies } from "./admissionregistration/mutatingadmissionpolicies.js";
import { mutatingwebhookconfigurations } from "./admissionregistration/mutatingwebhookconfigurations.js";
import { validatingadmissionpolicies } from "./admissionregistration/validatingadmissionpolicies.js";
import { validatingwebhookconfigurations } from "./admissionregistration/validatingwebhookconfigurations.js";
import { customresourcedefinitions } from "./apiextensions/customresourcedefinitions.js";
import { apiservices } from "./apiregistration/apiservices.js";
import { controllerrevisions } from "./apps/controllerrevisions.js";
import { daemonsets } from "./apps/daemonsets.js";
import { deployments } from "./apps/deployments.js";
import { replicasets } from "./apps/replicasets.js";
import { statefulsets } from "./apps/statefulsets.js";
import { selfsubjectreviews } from "./authentication/selfsubjectreviews.js";
import { tokenreviews } from "./authentication/tokenreviews.js";
import { localsubjectaccessreviews } from "./authorization/localsubjectaccessreviews.js";
import { selfsubjectaccessreviews } from "./authorization/selfsubjectaccessreviews.js";
import { selfsubjectrulesreviews } from "./authorization/selfsubjectrulesreviews.js";
import { subjectaccessreviews } from "./authorization/subjectaccessreviews.js";
import { horizontalpodautoscalers } from "./autoscaling/horizontalpodautoscalers.js";
import { cronjobs } from "./batch/cronjobs.js";
import { jobs } from "./batch/jobs.js";
import { certificatesigningrequests } from "./certificates/certificatesigningrequests.js";
import { clustertrustbundles } from "./certificates/clustertrustbundles.js";
import { leases } from "./coordination/leases.js";
import { configmaps } from "./core/configmaps.js";
import { endpoints } from "./core/endpoints.js";
import { events as coreEvents } from "./core/events.js";
import { limitranges } from "./core/limitranges.js";
import { namespaces } from "./core/namespaces.js";
import { nodes } from "./core/nodes.js";
import { persistentvolumeclaims } from "./core/persistentvolumeclaims.js";
import { persistentvolumes } from "./core/persistentvolumes.js";
import { pods } from "./core/pods.js";
import { podtemplates } from "./core/podtemplates.js";
import { replicationcontrollers } from "./core/replicationcontrollers.js";
import { resourcequotas } from "./core/resourcequotas.js";
import { secrets } from "./core/secrets.js";
import { services } from "./core/services.js";
import { endpointslices } from "./discovery/endpointslices.js";
import { events as eventsApiEvents } from "./events/events.js";
import { flowschemas } from "./flowcontrol/flowschemas.js";
import { prioritylevelconfigurations } from "./flowcontrol/prioritylevelconfigurations.js";
import { ingressclasses } from "./networking/ingressclasses.js";
import { ingresses } from "./networking/ingresses.js";
import { ipaddresses } from "./networking/ipaddresses.js";
import { networkpolicies } from "./networking/networkpolicies.js";
import { servicecidrs } from "./networking/servicecidrs.js";
import { runtimeclasses } from "./node/runtimeclasses.js";
import { poddisruptionbudgets } from "./policy/poddisruptionbudgets.js";
import { clusterrolebindings } from "./rbac/clusterrolebindings.js";
import { clusterroles } from "./rbac/clusterroles.js";
import { rolebindings } from "./rbac/rolebindings.js";
import { roles } from "./rbac/roles.js";
import { deviceclasses } from "./resource/deviceclasses.js";
import { resourceclaims } from "./resource/resourceclaims.js";
import { resourceclaimtemplates } from "./resource/resourceclaimtemplates.js";
import { resourceslices } from "./resource/resourceslices.js";
import { priorityclasses } from "./scheduling/priorityclasses.js";
import { csidrivers } from "./storage/csidrivers.js";
import { csinodes } from "./storage/csinodes.js";
import { csistoragecapacities } from "./storage/csistoragecapacities.js";
import { storageclasses } from "./storage/storageclasses.js";
import { volumeattachments } from "./storage/volumeattachments.js";
import { volumeattributesclasses } from "./storage/volumeattributesclasses.js";
import type { KindStrategy } from "./strategy.js";

export const KIND_STRATEGIES: readonly KindStrategy[] = [
  mutatingadmissionpolicies,
  mutatingadmissionpolicybindings,
  validatingadmissionpolicies,
  validatingadmissionpolicybindings,
  mutatingwebhookconfigurations,
  validatingwebhookconfigurations,
  customresourcedefinitions,
  apiservices,
  tokenreviews,
  controllerrevisions,
  selfsubjectreviews,
  subjectaccessreviews,
  localsubjectaccessreviews,
  selfsubjectaccessreviews,
  selfsubjectrulesreviews,
  daemonsets,
  deployments,
  replicasets,
  statefulsets,
  horizontalpodautoscalers,
  cronjobs,
  jobs,
  certificatesigningrequests,
  clustertrustbundles,
  leases,
  endpointslices,
  configmaps,
  endpoints,
  coreEvents,
  limitranges,
  namespaces,
  nodes,
  persistentvolumeclaims,
  persistentvolumes,
  pods,
  podtemplates,
  replicationcontrollers,
  resourcequotas,
  secrets,
  services,
  eventsApiEvents,
  flowschemas,
  prioritylevelconfigurations,
  ingresses,
  networkpolicies,
  ingressclasses,
  ipaddresses,
  servicecidrs,
  runtimeclasses,
  poddisruptionbudgets,
  deviceclasses,
  resourceclaims,
  resourceclaimtemplates,
  resourceslices,
  priorityclasses,
  roles,
  clusterroles,
  rolebindings,
  clusterrolebindings,
  csidrivers,
  csinodes,
  csistoragecapacities,
  storageclasses,
  volumeattachments,
  volumeattributesclasses,
];

const BY_RESOURCE = new Map(KIND_STRATEGIES.map((s) => [`${s.group}/${s.resource}`, s]));

/** The kind's strategy; undefined for kinds with only the generic behaviour. */
export function strategyFor(group: string, resource: string): KindStrategy | undefined {
  return BY_RESOURCE.get(`${group}/${resource}`);
}
