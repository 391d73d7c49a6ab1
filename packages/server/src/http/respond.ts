/** Writing API responses: JSON (with upstream's trailing newline), YAML, and Status errors. */
import type { ServerResponse } from "node:http";
import { encodeObject, JSON_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE, YAML_MEDIA_TYPE } from "@kubesdk/models";
import YAML from "yaml";
import { StatusError } from "../api/status.js";
import { committedText } from "../storage/object-text.js";
import { type BodyParts, bodyLength } from "./body-parts.js";
import type { MediaChoice } from "./negotiate.js";

export function contentTypeFor(choice: MediaChoice): string {
  if (choice.encoding === "yaml") return YAML_MEDIA_TYPE;
  if (choice.encoding === "protobuf") return PROTOBUF_MEDIA_TYPE;
  // Upstream labels Table and metadata-only responses plain application/json.
  return JSON_MEDIA_TYPE;
}

export function encodeBody(body: unknown, choice: MediaChoice): Buffer {
  if (choice.encoding === "protobuf") return Buffer.from(encodeObject(body as object));
  // Like the apiserver's YAML: keys sorted, sequences not indented, timestamps quoted (YAML 1.1).
  if (choice.encoding === "yaml")
    return Buffer.from(
      YAML.stringify(body, {
        aliasDuplicateObjects: false,
        sortMapEntries: true,
        indentSeq: false,
        version: "1.1",
      }),
    );
  return Buffer.from(`${choice.pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body)}\n`);
}

export function writeBody(
  res: ServerResponse,
  code: number,
  body: unknown,
  choice: MediaChoice,
  headers: Record<string, string> = {},
): void {
  writeBytes(res, code, encodeBody(body, choice), choice, headers);
}

/** Writes an encoded body (see encodeBody, or the parts of a big list's) with its headers. */
export function writeBytes(
  res: ServerResponse,
  code: number,
  bytes: Buffer | BodyParts,
  choice: MediaChoice,
  headers: Record<string, string> = {},
): void {
  const parts = Buffer.isBuffer(bytes) ? [bytes] : bytes;
  res.writeHead(code, {
    "Content-Type": contentTypeFor(choice),
    "Content-Length": String(bodyLength(parts)),
    "Cache-Control": "no-cache, private",
    ...headers,
  });
  endInSlices(res, parts);
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Writes a just-committed object as the JSON text its commit measured (storage/object-text.ts),
 * when JSON was negotiated and the body is that object; false when it is not, for encodeBody.
 * The text goes out as a string: Node joins a string body to the head, one write instead of two.
 */
export function writeCommitted(
  res: ServerResponse,
  code: number,
  body: unknown,
  choice: MediaChoice,
  headers: Record<string, string> | undefined,
): boolean {
  if (choice.encoding !== "json" || choice.pretty) return false;
  // Node encodes a head joined to a string body as the body is (UTF-8): a header holding UTF-8
  // bytes as latin1 characters (warningHeaders) would be encoded twice, so that answer takes encodeBody.
  if (headers !== undefined && Object.values(headers).some((v) => NON_ASCII.test(v))) return false;
  const known = committedText(body);
  if (known === undefined) return false;
  res.writeHead(code, {
    "Content-Type": contentTypeFor(choice),
    "Content-Length": String(known.bytes + 1),
    "Cache-Control": "no-cache, private",
    ...headers,
  });
  res.end(`${known.text}\n`);
  return true;
}

/** Bodies are handed to the socket at most this much at a time. */
const WRITE_SLICE = 1 << 20;

/**
 * The body's parts regrouped into writes of at most WRITE_SLICE: big parts cut, small neighbours
 * grouped (a list's head, separators and items that are not neighbours in a cache). A group is
 * written corked, as one write of several buffers, not joined first: the TLS layer copies a write
 * of several buffers into one anyway, so joining them here copied the body twice.
 */
function* writeSlices(parts: BodyParts): Generator<Buffer[]> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  for (const part of parts) {
    if (pendingLength + part.length <= WRITE_SLICE) {
      pending.push(part);
      pendingLength += part.length;
      continue;
    }
    if (pendingLength > 0) yield pending;
    pending = [];
    pendingLength = 0;
    let at = 0;
    while (part.length - at > WRITE_SLICE) {
      yield [part.subarray(at, at + WRITE_SLICE)];
      at += WRITE_SLICE;
    }
    pending.push(at === 0 ? part : part.subarray(at));
    pendingLength = part.length - at;
  }
  if (pendingLength > 0) yield pending;
}

/** Hands one group to the socket (ending the response after it when `last`); false: wait for drain. */
function writeGroup(res: ServerResponse, group: readonly Buffer[], last: boolean): boolean {
  // HTTP/2's compatibility response has no cork: its writes are frames of their own anyway.
  const corked = group.length > 1 && typeof res.cork === "function";
  if (corked) res.cork();
  let ok = true;
  for (let i = 0; i < group.length - 1; i++) ok = res.write(group[i] as Buffer);
  const tail = group[group.length - 1] as Buffer;
  if (last) res.end(tail);
  else ok = res.write(tail);
  if (corked) res.uncork();
  return ok;
}

/**
 * Ends the response with the body, handing it to the socket one slice at a time, the next once
 * the last has drained: TLS encrypts all it is given at once, so one write of a whole list of
 * 50,000 objects (20 MiB) held an encrypted copy of it besides the body itself.
 */
function endInSlices(res: ServerResponse, parts: BodyParts): void {
  const only = parts.length === 1 ? (parts[0] as Buffer) : undefined;
  if (only !== undefined && only.length <= WRITE_SLICE) {
    res.end(only);
    return;
  }
  const slices = writeSlices(parts);
  let current = slices.next();
  if (current.done) {
    res.end();
    return;
  }
  const next = (): void => {
    while (!current.done) {
      const group = current.value;
      current = slices.next();
      if (!writeGroup(res, group, current.done === true)) {
        if (current.done !== true) res.once("drain", next);
        return;
      }
    }
  };
  next();
}

const JSON_CHOICE: MediaChoice = { encoding: "json", pretty: false };

/** Errors are Status bodies in JSON, or in protobuf or YAML when the request negotiated it (as upstream). */
/** The representation negotiated for a response, so errors can use it too (upstream encodes Status the same way). */
const negotiated = new WeakMap<ServerResponse, MediaChoice>();

export function rememberChoice(res: ServerResponse, choice: MediaChoice): void {
  negotiated.set(res, choice);
}

function errorChoice(res: ServerResponse): MediaChoice {
  const c = negotiated.get(res);
  // Upstream encodes a Status like any response: protobuf or YAML when negotiated.
  return c?.encoding === "protobuf" || c?.encoding === "yaml"
    ? { encoding: c.encoding, pretty: false }
    : JSON_CHOICE;
}

export function writeError(res: ServerResponse, err: unknown): void {
  const status = err instanceof StatusError ? err : null;
  if (!status) {
    const message = err instanceof Error ? err.message : String(err);
    const internal = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `Internal error occurred: ${message}`,
      reason: "InternalError",
      details: { causes: [{ message }] },
      code: 500,
    };
    if (!res.headersSent) writeBody(res, 500, internal, errorChoice(res));
    else res.destroy();
    return;
  }
  const retry = status.status.details?.retryAfterSeconds;
  const headers: Record<string, string> = retry && retry > 0 ? { "Retry-After": String(retry) } : {};
  if (!res.headersSent)
    writeBody(res, status.statusCode, status.status, errorChoice(res), { ...status.headers, ...headers });
  else res.destroy();
}
