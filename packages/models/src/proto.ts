/**
 * Protobuf descriptors of the built-in kinds and the envelope/meta messages, loaded lazily into a
 * protobufjs Root (the light build: no .proto parser is needed at run time).
 */
import protobuf from "protobufjs/light.js";
import { ModelsError } from "./errors.js";
import { protoMessagesJson, protoPackages } from "./generated/proto.js";
import { apiVersionOf, type GroupVersionKind } from "./gvk.js";

export type ProtoRoot = protobuf.Root;
export type ProtoType = protobuf.Type;

/** Full names of the messages every protobuf codec needs. */
export const protoMessageNames = {
  /** The envelope after the "k8s\0" magic. */
  unknown: "k8s.io.apimachinery.pkg.runtime.Unknown",
  /** One frame of a protobuf watch stream. */
  watchEvent: "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent",
  status: "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
} as const;

/** The four bytes "k8s\0" that start every protobuf-encoded object. */
export const protoMagic: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/**
 * Kinds that the apiserver registers into every group version but whose messages live in
 * meta/v1 (Status, WatchEvent, the *Options kinds, discovery documents).
 */
export const metaKinds: ReadonlySet<string> = new Set([
  "Status",
  "WatchEvent",
  "ListOptions",
  "GetOptions",
  "DeleteOptions",
  "CreateOptions",
  "UpdateOptions",
  "PatchOptions",
  "APIVersions",
  "APIGroup",
  "APIGroupList",
  "APIResourceList",
]);
export const metaPackage = "k8s.io.apimachinery.pkg.apis.meta.v1";

let root: protobuf.Root | undefined;

/** All descriptors in one Root, built on first use. */
export function protoRoot(): protobuf.Root {
  if (root) return root;
  const built = new protobuf.Root();
  const messages = JSON.parse(protoMessagesJson) as Record<string, protobuf.IType>;
  for (const [fullName, descriptor] of Object.entries(messages)) {
    const dot = fullName.lastIndexOf(".");
    built.define(fullName.slice(0, dot)).add(protobuf.Type.fromJSON(fullName.slice(dot + 1), descriptor));
  }
  // No eager resolveAll(): each Type resolves its own fields on first encode/decode, which keeps
  // building the root cheap (~50 ms instead of ~170 ms for all messages).
  root = built;
  return built;
}

/** A message by full name, e.g. "k8s.io.api.apps.v1.Deployment". */
export function protoType(fullName: string): protobuf.Type {
  const found = lookupType(fullName);
  if (!found) throw new ModelsError("UNKNOWN_PROTO_TYPE", `no protobuf message ${fullName}`);
  return found;
}

/** The message of a built-in kind, e.g. { group: "apps", version: "v1", kind: "Deployment" }. */
export function protoTypeFor(gvk: GroupVersionKind): protobuf.Type {
  const found = findProtoTypeFor(gvk);
  if (!found) {
    throw new ModelsError(
      "UNKNOWN_PROTO_TYPE",
      `no protobuf message for kind ${gvk.kind} in ${apiVersionOf(gvk)} (protobuf covers built-in kinds only)`,
    );
  }
  return found;
}

/** Like protoTypeFor, but undefined for kinds without a protobuf form (e.g. custom resources). */
export function findProtoTypeFor(gvk: GroupVersionKind): protobuf.Type | undefined {
  const pkg = protoPackages[apiVersionOf(gvk)];
  const own = pkg === undefined ? undefined : lookupType(`${pkg}.${gvk.kind}`);
  if (own) return own;
  return metaKinds.has(gvk.kind) ? lookupType(`${metaPackage}.${gvk.kind}`) : undefined;
}

function lookupType(fullName: string): protobuf.Type | undefined {
  const found = protoRoot().lookup(fullName);
  return found instanceof protobuf.Type ? found : undefined;
}
