/**
 * WatchStream: one watch response body. Writes event frames in order and
 * bounds what a slow reader can make the server hold: past `maxBufferedBytes`
 * of unwritten frames the stream is cut (upstream closes a watcher whose
 * channel is full), so writers and other watchers never wait for it.
 */
import type { ServerResponse } from "node:http";

export interface WatchStreamOptions {
  readonly maxBufferedBytes: number;
  /** Called once when the stream ends for any reason. */
  readonly onClose: (reason: WatchEndReason) => void;
}

export type WatchEndReason =
  | "timeout"
  | "client-closed"
  | "slow-reader"
  | "expired"
  | "dropped"
  | "server-stopped";

export class WatchStream {
  private closed = false;
  private pausedFrames: Buffer[] = [];
  private paused = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly opts: WatchStreamOptions,
  ) {
    res.on("close", () => this.finish("client-closed"));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Holds frames instead of writing them (fault injection: pause delivery). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    const frames = this.pausedFrames;
    this.pausedFrames = [];
    for (const f of frames) this.write(f);
  }

  write(frame: Buffer): void {
    if (this.closed) return;
    if (this.paused) {
      this.pausedFrames.push(frame);
      return;
    }
    this.res.write(frame);
    if (this.res.writableLength > this.opts.maxBufferedBytes) {
      this.finish("slow-reader");
      this.res.destroy();
    }
  }

  /** Ends the body cleanly (no final event), as upstream does on timeout. */
  end(reason: WatchEndReason): void {
    if (this.closed) return;
    this.finish(reason);
    this.res.end();
  }

  /** Ends the connection abruptly (fault injection, slow readers). */
  destroy(reason: WatchEndReason): void {
    if (this.closed) return;
    this.finish(reason);
    this.res.destroy();
  }

  /** Raw access for fault injection that must write partial frames. */
  get response(): ServerResponse {
    return this.res;
  }

  private finish(reason: WatchEndReason): void {
    if (this.closed) return;
    this.closed = true;
    this.opts.onClose(reason);
  }
}
