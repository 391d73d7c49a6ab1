/**
 * Entry of a decode worker thread (decode-pool.ts): decodes one request body per message and
 * answers with the result, the Status of a bad body, or the message of an unexpected failure.
 */
import { parentPort } from "node:worker_threads";
import { answer } from "../api/worker-pool.js";
import { type DecodeTask, runDecodeTask } from "./body-decode.js";

export interface DecodeJob {
  readonly id: number;
  readonly raw: Uint8Array;
  readonly task: DecodeTask;
}

const port = parentPort;
if (port)
  port.on("message", (job: DecodeJob) =>
    answer(port, job.id, () =>
      runDecodeTask(Buffer.from(job.raw.buffer, job.raw.byteOffset, job.raw.byteLength), job.task),
    ),
  );
