/** Writing API responses: JSON (with upstream's trailing newline), YAML, and Status errors. */
import type { ServerResponse } from "node:http";
import { encodeObject, JSON_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE, YAML_MEDIA_TYPE } from "@kubesdk/models";
import YAML from "yaml";
import { StatusError } from "../api/status.js";
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

/** Writes an encoded body (see encodeBody) with its headers. */
export function writeBytes(
  res: ServerResponse,
  code: number,
  bytes: Buffer,
  choice: MediaChoice,
  headers: Record<string, string> = {},
): void {
  res.writeHead(code, {
    "Content-Type": contentTypeFor(choice),
    "Content-Length": String(bytes.length),
    "Cache-Control": "no-cache, private",
    ...headers,
  });
  endInSlices(res, bytes);
}

/** Bodies longer than this go to the socket a slice at a time. */
const WRITE_SLICE = 1 << 20;

/**
 * Ends the response with `bytes`, handing a big body (a whole list of 50,000 objects is 20 MiB) to
 * the socket one slice at a time, the next once the last has drained: TLS encrypts all it is given
 * at once, so one write held an encrypted copy of the whole body besides the body itself.
 */
function endInSlices(res: ServerResponse, bytes: Buffer): void {
  let at = 0;
  const next = (): void => {
    while (bytes.length - at > WRITE_SLICE) {
      const slice = bytes.subarray(at, at + WRITE_SLICE);
      at += WRITE_SLICE;
      if (!res.write(slice)) {
        res.once("drain", next);
        return;
      }
    }
    res.end(at === 0 ? bytes : bytes.subarray(at));
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
