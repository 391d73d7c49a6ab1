/** Kind-agnostic object shapes for code that handles any resource (clients, informers, the server). */
import type { ListMeta, ObjectMeta } from "./generated/types/meta.v1.js";

export interface KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

export interface KubernetesList<T extends KubernetesObject = KubernetesObject> {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: T[];
}
