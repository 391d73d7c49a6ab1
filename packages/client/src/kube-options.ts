// The options of `Kube` and how they become a transport and a body codec: one place, so every way
// of making a `Kube` (constructor, fromConnection, fromKubeconfig, fromKubeconfigText) sets up the
// same things.
import type { Int64Mode, ResourceRegistry } from "@kubesdk/models";
import type { KubeconfigOverrides, LoadConnectionOptions, TransportOptions } from "@kubesdk/transport";
import { ClientError } from "./errors.js";
import type { ProtobufCodec } from "./io/body-codec.js";
import type { ApiWarning } from "./io/warnings.js";

export interface KubeOptions {
  /** Default namespace for namespaced calls (default: the kubeconfig context's, else "default"). */
  readonly namespace?: string;
  /**
   * Ask for protobuf for built-in kinds (`Accept: application/vnd.kubernetes.protobuf,
   * application/json`; responses are decoded by their Content-Type) and send protobuf bodies on
   * create/replace; needs `protobufCodec`. Custom resources and Tables stay JSON. Unset: requests
   * are JSON, informers use protobuf for built-in kinds when there is a `protobufCodec` (see the
   * informer option `encoding`); false: JSON everywhere.
   */
  readonly protobuf?: boolean;
  /**
   * Encodes and decodes protobuf bodies and watch frames: `protobufCodec` from `kubesdk/protobuf`
   * (or `@kubesdk/client/protobuf`). None by default, so that a program that never speaks protobuf
   * does not carry the generated codec; without one, everything is JSON.
   */
  readonly protobufCodec?: ProtobufCodec;
  /**
   * How protobuf responses and watch events give an int64 beyond ±(2^53 − 1) (a generation, a
   * user id, a quota): "number" (the default) fails the call with a WireError PROTOBUF_INT64
   * rather than round it; "bigint" and "string" give it exactly. Values within the safe range are
   * numbers in every mode. Applies to a `protobufCodec` that has `withInt64` (the built-in one does).
   */
  readonly int64?: Int64Mode;
  /** Receives the server's Warning headers (deprecations, dropped fields under fieldValidation=Warn). */
  readonly onWarning?: (warning: ApiWarning) => void;
  /** Registry typed clients are resolved from (default: the built-in resources of the pinned release). */
  readonly registry?: ResourceRegistry;
}

/** Options of a `Kube` that makes its own transport. */
export interface KubeConnectOptions extends KubeOptions {
  /** Options of the HTTP transport (timeouts, retries, user agent, …). */
  readonly transport?: TransportOptions;
}

export interface KubeFromKubeconfigOptions extends KubeConnectOptions {
  /** Which kubeconfig, context and overrides (default: $KUBECONFIG, ~/.kube/config, then in-cluster). */
  readonly kubeconfig?: LoadConnectionOptions;
}

/** What `Kube.fromKubeconfigText` needs of a running API server, e.g. `startServer()`'s result. */
export interface KubeconfigSource {
  /** A kubeconfig document (YAML or JSON). */
  readonly kubeconfig: string;
}

export interface KubeconfigTextOptions extends KubeConnectOptions {
  /** Context, cluster, user or namespace other than the document's current context. */
  readonly overrides?: KubeconfigOverrides;
}

/** The transport options for a `Kube` with its own transport: protobuf decoders from the codec. */
export function transportOptionsOf(options: KubeConnectOptions): TransportOptions | undefined {
  const codec = protobufCodecOf(options);
  if (codec === undefined) return options.transport;
  return {
    ...options.transport,
    // Decoded by the response's Content-Type, so harmless for JSON responses.
    protobufWatchFrameDecoder: codec.decodeWatchFrame,
    protobufDecoder: codec.decode,
  };
}

/** The client's protobuf codec in its `int64` mode; undefined for a JSON-only client. */
export function protobufCodecOf(options: KubeOptions): ProtobufCodec | undefined {
  const int64 = int64Option(options.int64);
  const codec = options.protobufCodec;
  if (codec === undefined) {
    if (options.protobuf === true)
      throw new ClientError(
        "INVALID_OPTION",
        'protobuf: true needs a protobufCodec: import { protobufCodec } from "kubesdk/protobuf" and pass both',
      );
    return undefined;
  }
  return int64 === "number" ? codec : (codec.withInt64?.(int64) ?? codec);
}

function int64Option(value: unknown): Int64Mode {
  if (value === undefined) return "number";
  if (value === "number" || value === "bigint" || value === "string") return value;
  throw new ClientError(
    "INVALID_OPTION",
    `int64: expected "number", "bigint" or "string", got ${String(value)}`,
  );
}
