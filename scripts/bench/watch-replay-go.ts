/** The replay rows' Go reader (watch-replay-go/), built and cached by go-program.ts. */
import { goBenchProgram } from "./go-program.js";

/** The reader's binary, built now if its sources or the Go version changed. */
export function goReaderBinary(): string {
  return goBenchProgram("watch-replay-go", "BENCH_REPLAY_READER=node: the Node reader");
}
