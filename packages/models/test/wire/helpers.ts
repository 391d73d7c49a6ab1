/** Test helpers: envelopes written and read with protobufjs directly, and typed-error capture. */
import { protoMagic, protoMessageNames, protoType, WireError } from "@kubesdk/models";

export interface EnvelopeFields {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly raw?: Uint8Array;
  readonly contentEncoding?: string;
}

/** Magic + runtime.Unknown with whatever the test puts inside (ConfigMap in v1 by default). */
export function seal(fields: EnvelopeFields): Buffer {
  const body = protoType(protoMessageNames.unknown)
    .encode({
      typeMeta: { apiVersion: fields.apiVersion ?? "v1", kind: fields.kind ?? "ConfigMap" },
      raw: fields.raw ?? new Uint8Array(0),
      contentEncoding: fields.contentEncoding ?? "",
      contentType: "",
    })
    .finish();
  return Buffer.concat([protoMagic, body]);
}

/** The envelope of an enveloped object, read without the codec. */
export function unseal(bytes: Uint8Array): { apiVersion: string; kind: string; raw: Uint8Array } {
  const envelope = protoType(protoMessageNames.unknown).decode(
    bytes.subarray(protoMagic.length),
  ) as unknown as {
    typeMeta: { apiVersion: string; kind: string };
    raw: Uint8Array;
  };
  return { ...envelope.typeMeta, raw: envelope.raw };
}

/** The error of class `type` (WireError by default) that `run` throws; any other outcome fails the test. */
export function errorOf<E extends Error = WireError>(
  run: () => unknown,
  type: abstract new (...args: never[]) => E = WireError as unknown as abstract new (
    ...args: never[]
  ) => E,
): E {
  try {
    run();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}, but nothing was thrown`);
}

export function codeOf(run: () => unknown): string {
  return errorOf(run).code;
}
