/**
 * KindStrategy: everything the server knows about one built-in kind beyond its schema, in one
 * place, as upstream keeps it in pkg/registry/<group>/<kind>/strategy.go: traits (generation,
 * field selectors, what DELETE answers, shared storage) and the write steps (defaults,
 * prepare-for-create/update, validation). A kind without a file gets the generic behaviour.
 */
import type { StorageConversion, WriteStrategy } from "../resources/served.js";

export type { StrategyContext, WriteStrategy } from "../resources/served.js";

export interface KindStrategy extends WriteStrategy {
  readonly group: string;
  /** The plural resource name, as in URLs. */
  readonly resource: string;
  /** Whether writes to spec bump metadata.generation. */
  readonly tracksGeneration?: boolean;
  /** Field paths beyond metadata.name/namespace usable in field selectors. */
  readonly fieldLabels?: readonly string[];
  /** Field labels whose value is read from another path. */
  readonly fieldLabelPaths?: Readonly<Record<string, string>>;
  /** What a field label reads when its field is unset: Go's zero value of the field's type. */
  readonly fieldLabelZeros?: Readonly<Record<string, string>>;
  /** Whether DELETE answers with the deleted object instead of a Success Status. */
  readonly returnsDeletedObject?: boolean;
  /** Created objects are answered, never stored (upstream: a REST with only Create). */
  readonly virtual?: boolean;
  /** A bucket shared with another API, and the conversion to its stored shape. */
  readonly storage?: { readonly bucket: string; readonly convert: StorageConversion };
  /**
   * Older GA versions served besides the preferred one, which is stored: each converts to and from
   * the stored shape and has its own defaults (upstream: the version's conversion.go and
   * defaults.go). The kind's validation runs on the converted object; its other write steps
   * (prepareCreate, prepareUpdate) are the stored version's only.
   */
  readonly otherVersions?: Readonly<Record<string, OtherVersion>>;
}

/** A served version of a kind stored in another version (autoscaling/v1 HPAs, stored as v2). */
export interface OtherVersion {
  readonly convert: StorageConversion;
  readonly defaults?: (obj: Record<string, unknown>) => void;
}

/** The kind's write steps, without its traits: what ServedResource.strategy carries. */
export function writeStepsOf(s: KindStrategy): WriteStrategy | undefined {
  const {
    defaults,
    prepareCreate,
    allocates,
    canonicalize,
    prepareUpdate,
    validate,
    validateSteps,
    statusResetsMetadata,
    warnings,
  } = s;
  if (!defaults && !prepareCreate && !canonicalize && !prepareUpdate && !validate && !statusResetsMetadata)
    return undefined;
  return {
    ...(defaults ? { defaults } : {}),
    ...(prepareCreate ? { prepareCreate } : {}),
    ...(allocates ? { allocates } : {}),
    ...(canonicalize ? { canonicalize } : {}),
    ...(prepareUpdate ? { prepareUpdate } : {}),
    ...(validate ? { validate } : {}),
    ...(validateSteps ? { validateSteps } : {}),
    ...(statusResetsMetadata ? { statusResetsMetadata } : {}),
    ...(warnings ? { warnings } : {}),
  };
}

/** The write steps of `version`, one of the kind's otherVersions: its defaults, the kind's validation. */
export function otherVersionSteps(s: KindStrategy, version: OtherVersion): WriteStrategy | undefined {
  const { validate } = s;
  const { convert, defaults } = version;
  if (!defaults && !validate) return undefined;
  return {
    ...(defaults ? { defaults } : {}),
    ...(validate
      ? {
          validate: (obj, old, sub) => validate(convert.toStored(obj), old && convert.toStored(old), sub),
        }
      : {}),
  };
}

/** The metadata upstream's metav1.ResetObjectMetaForStatus keeps from the stored object. */
export const RESET_FOR_STATUS: readonly string[] = ["labels", "annotations", "finalizers", "ownerReferences"];
