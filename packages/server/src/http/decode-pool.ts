/**
 * Decoding big request bodies on worker threads (decode-worker.ts, through api/worker-pool.ts), so
 * parsing a limit-sized body does not hold the event loop that serves every other client.
 */
import { errors } from "../api/status.js";
import { startEntry, WorkerPool } from "../api/worker-pool.js";
import type { DecodedObject, DecodedPatch, DecodeTask } from "./body-decode.js";
import type { DecodeJob } from "./decode-worker.js";

/** Heap limit of one worker: a body that blows it fails alone (500), the server goes on. */
const WORKER_HEAP_MB = 512;
const fromSource = import.meta.url.endsWith(".ts");
const ENTRY = new URL(`./decode-worker.${fromSource ? "ts" : "js"}`, import.meta.url);

let pool: WorkerPool | undefined;

/** Decodes a body on a worker thread: the same result or Status as in-process, a 500 if the worker fails. */
export async function decodeOffThread(raw: Buffer, task: DecodeTask): Promise<DecodedObject | DecodedPatch> {
  pool ??= new WorkerPool({
    start: () => startEntry(ENTRY, WORKER_HEAP_MB),
    name: "decode",
    failed: (why) => errors.internal(why),
  });
  const result = await pool.run((id): DecodeJob => ({ id, raw, task }));
  return result as DecodedObject | DecodedPatch;
}

/** Ends the decode workers (a body they were decoding gets a 500); the next big body starts new ones. */
export function stopDecodeWorkers(): void {
  pool?.stop();
}
