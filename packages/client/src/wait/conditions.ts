/**
 * What `waitFor` can wait for: a test of the object's current state (undefined: the object does
 * not exist) and a description naming it in timeout errors.
 */

/** A state to wait for; `object` is undefined while (or once) the object does not exist. */
export interface WaitCondition<T> {
  /** Names what is awaited, e.g. `condition Ready=True`, in errors. */
  readonly description: string;
  test(object: T | undefined): boolean;
}

interface Conditioned {
  readonly status?: { readonly conditions?: readonly { readonly type?: string; readonly status?: string }[] };
}

/** The object has `status.conditions[type=<type>].status == <status>` (like `kubectl wait --for=condition=`). */
export function condition(
  type: string,
  status: "True" | "False" | "Unknown" = "True",
): WaitCondition<unknown> {
  return {
    description: `condition ${type}=${status}`,
    test: (object) =>
      (object as Conditioned | undefined)?.status?.conditions?.some(
        (c) => c.type === type && c.status === status,
      ) ?? false,
  };
}

/** The object does not exist (deleted, or never created). */
export function deleted(): WaitCondition<unknown> {
  return { description: "deletion", test: (object) => object === undefined };
}

/** A CustomResourceDefinition is Established: the API server serves its resource. */
export function established(): WaitCondition<unknown> {
  return { ...condition("Established"), description: "CRD condition Established=True" };
}

interface DeploymentLike {
  readonly metadata?: { readonly generation?: number };
  readonly spec?: { readonly replicas?: number };
  readonly status?: {
    readonly observedGeneration?: number;
    readonly replicas?: number;
    readonly updatedReplicas?: number;
    readonly availableReplicas?: number;
  };
}

/**
 * A Deployment's rollout is complete, by the rule of `kubectl rollout status`: the controller has
 * seen the latest spec, every desired replica is updated and available, and no old replica is left.
 */
export function rolloutComplete(): WaitCondition<unknown> {
  return {
    description: "rollout complete",
    test: (object) => {
      const d = object as DeploymentLike | undefined;
      if (d?.status === undefined) return false;
      const desired = d.spec?.replicas ?? 1;
      const s = d.status;
      return (
        (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
        (s.updatedReplicas ?? 0) >= desired &&
        (s.replicas ?? 0) <= (s.updatedReplicas ?? 0) &&
        (s.availableReplicas ?? 0) >= (s.updatedReplicas ?? 0)
      );
    },
  };
}

/** Any test of the object; `description` names it in errors. */
export function matches<T>(description: string, test: (object: T | undefined) => boolean): WaitCondition<T> {
  return { description, test };
}

/**
 * `T` where it must not be inferred from (TypeScript 5.4's `NoInfer`, which the packages cannot use:
 * they support TypeScript 5.0). Indexing a one-element tuple defers the type until `T` is fixed.
 */
export type NoInferFrom<T> = [T][T extends unknown ? 0 : never];
