/** Reads a request body with a hard byte limit (413 past it, as etcd's limit makes upstream do). */
import type { IncomingMessage } from "node:http";
import { errors } from "../api/status.js";

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    req.resume();
    return Promise.reject(errors.requestEntityTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(errors.requestEntityTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      // One chunk (most bodies) is the body: no copy.
      if (!failed) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    req.on("error", (e) => {
      if (!failed) reject(e);
    });
  });
}

/**
 * Reads a small JSON object body for the server's own control APIs (faults, pods): an empty body is
 * `{}`; anything but a JSON object is refused with `bad(why)`, a 400 naming the API.
 */
export async function readJsonObjectBody(
  req: IncomingMessage,
  limit: number,
  bad: (why: string) => Error,
): Promise<Record<string, unknown>> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    throw bad("the body must be JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw bad("the body must be a JSON object");
  return body as Record<string, unknown>;
}
