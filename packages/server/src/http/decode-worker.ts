/**
 * Entry of a decode worker thread (decode-pool.ts): decodes one request body per message and
 * answers with the result, the Status of a bad body, or the message of an unexpected failure.
 */
import { parentPort } from "node:worker_threads";
import { StatusError } from "../api/status.js";
import { type DecodeTask, runDecodeTask } from "./body-decode.js";

export interface DecodeJob {
  readonly id: number;
  readonly raw: Uint8Array;
  readonly task: DecodeTask;
}

export type DecodeReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly status: StatusError["status"] }
  | { readonly id: number; readonly ok: false; readonly failure: string };

const port = parentPort;
if (port)
  port.on("message", (job: DecodeJob) => {
    let reply: DecodeReply;
    try {
      const raw = Buffer.from(job.raw.buffer, job.raw.byteOffset, job.raw.byteLength);
      reply = { id: job.id, ok: true, result: runDecodeTask(raw, job.task) };
    } catch (e) {
      reply =
        e instanceof StatusError
          ? { id: job.id, ok: false, status: e.status }
          : { id: job.id, ok: false, failure: e instanceof Error ? e.message : String(e) };
    }
    try {
      port.postMessage(reply);
    } catch (e) {
      // A value the structured clone cannot carry: the request fails alone, the worker stays.
      port.postMessage({ id: job.id, ok: false, failure: (e as Error).message } satisfies DecodeReply);
    }
  });
