/**
 * Reading a response body for the transport: as an async iterable, in flowing mode to a sink, or
 * through a body reader; transport failures come out classified (classify-error.ts).
 */
import type { Dispatcher } from "undici";
import { classifyError, type FailureContext } from "./classify-error.js";
import type { RequestSignal } from "./request-signal.js";
import { type BodyFlow, type BodyReader, type BodySink, releaseBody } from "./response.js";

export async function* classifiedChunks(
  body: Dispatcher.ResponseData["body"],
  failure: FailureContext,
  own: RequestSignal,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) yield chunk;
  } catch (err) {
    throw classifyError(err, failure);
  } finally {
    releaseBody(body);
    own.release();
  }
}

/**
 * The body in flowing mode: each chunk goes to the sink as the socket delivers it. The stream's
 * async iterator costs a few promises per chunk and joins the chunks that wait in its buffer into
 * one copy; a watch reads hundreds of megabytes this way (docs/performance.md).
 */
export function flowingBody(
  body: Dispatcher.ResponseData["body"],
  failure: FailureContext,
  own: RequestSignal,
  sink: BodySink,
): BodyFlow {
  let over = false;
  const finish = (): boolean => {
    if (over) return false;
    over = true;
    releaseBody(body);
    own.release();
    return true;
  };
  body.on("data", (chunk: Buffer) => {
    if (!over) sink.chunk(chunk);
  });
  body.once("end", () => {
    if (finish()) sink.end();
  });
  body.once("error", (err) => {
    if (finish()) sink.fail(classifyError(err, failure));
  });
  // Destroyed without an error (close() from the reader's side): nothing more comes.
  body.once("close", () => {
    if (finish()) sink.end();
  });
  return { pause: () => body.pause(), resume: () => body.resume() };
}

/** Marks what a body reader threw, so that it is not taken for a transport failure. */
export class BodyReaderFailure {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

/**
 * Feeds a body to `reader` chunk by chunk as it arrives. By 'data' events rather than an async
 * iterator: the iterator's read() joins the chunks that wait into one new buffer, and takes a
 * promise per chunk.
 */
export function readThrough<T>(body: Dispatcher.ResponseData["body"], reader: BodyReader<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      reject(err);
    };
    body.on("data", (chunk: Buffer) => {
      if (failed) return;
      try {
        reader.push(chunk);
      } catch (err) {
        fail(new BodyReaderFailure(err));
      }
    });
    body.on("end", () => {
      if (failed) return;
      try {
        resolve(reader.end());
      } catch (err) {
        fail(new BodyReaderFailure(err));
      }
    });
    body.on("error", fail);
  });
}
