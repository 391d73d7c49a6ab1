import type { KubernetesList, KubernetesObject } from "@kubesdk/models";
import type { ClientContext, RequestControl } from "../io/context.js";
import type { CreateOptions, ReplaceOptions } from "../request/options.js";
import { ResourceClient } from "../resource-client.js";
import type { ResourceTarget } from "../resource-target.js";
import type { CustomResourceDefinitionOf } from "./definition.js";

/**
 * The client of `kube.custom(definition)`: fills in apiVersion and kind when left out, and checks
 * created and replaced objects against the version's schema before they are sent (a ClientError
 * INVALID_OBJECT instead of a round trip). Patches and apply configurations are partial objects,
 * so only the server checks them.
 */
export class DefinedResourceClient<
  T extends KubernetesObject,
  L extends KubernetesList<T> = KubernetesList<T>,
> extends ResourceClient<T, L> {
  readonly definition: CustomResourceDefinitionOf;

  constructor(context: ClientContext, target: ResourceTarget, definition: CustomResourceDefinitionOf) {
    super(context, target);
    this.definition = definition;
  }

  override async create(object: T, options: CreateOptions & RequestControl = {}): Promise<T> {
    return super.create(this.#checked(object), options);
  }

  override async replace(object: T, options: ReplaceOptions & RequestControl = {}): Promise<T> {
    return super.replace(this.#checked(object), options);
  }

  #checked(object: T): T {
    const full = {
      apiVersion: `${this.target.group}/${this.target.version}`,
      kind: this.definition.kind,
      ...object,
    };
    this.definition.assertValid(full);
    return full;
  }
}
