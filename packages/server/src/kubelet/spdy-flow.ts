/**
 * Send-side flow control of SPDY/3.1: data goes out only while the stream's window (initially the
 * peer's SETTINGS_INITIAL_WINDOW_SIZE, 64 KiB by default) and the session's window (64 KiB) allow,
 * and both grow with the peer's WINDOW_UPDATEs. A write whose data cannot go out yet is held with
 * its callback, so the stream's writable side stops taking more (its source pauses) until the peer
 * grants window. Windows are enforced once the peer shows it does flow control (a SETTINGS
 * INITIAL_WINDOW_SIZE or any WINDOW_UPDATE): peers built on moby/spdystream, which kube-apiserver
 * and kubectl use, never send either and read without limits, so data to them is only paced by the
 * transport's own backpressure. Bytes sent are counted from the start either way.
 */

/** Largest data frame body sent. */
export const MAX_DATA_FRAME = 64 * 1024;
export const DEFAULT_WINDOW = 64 * 1024;
const SETTINGS_INITIAL_WINDOW_SIZE = 7;

interface Pending {
  data: Buffer;
  readonly flags: number;
  readonly callback: (error?: Error | null) => void;
}

interface Outbound {
  window: number;
  readonly queue: Pending[];
}

/** Emits one data frame; `done` runs once the transport has taken it. */
export type EmitData = (id: number, flags: number, chunk: Buffer, done?: () => void) => void;

export class SendWindows {
  readonly #emit: EmitData;
  readonly #streams = new Map<number, Outbound>();
  #enforced = false;
  #initial = DEFAULT_WINDOW;
  #session = DEFAULT_WINDOW;

  constructor(emit: EmitData) {
    this.#emit = emit;
  }

  /** Queues `data` for stream `id` (`flags` go on its last frame) and sends what the windows allow. */
  write(id: number, flags: number, data: Buffer, callback: (error?: Error | null) => void): void {
    this.#stream(id).queue.push({ data, flags, callback });
    this.#pump();
  }

  /** A SETTINGS frame body: INITIAL_WINDOW_SIZE moves every stream's window by the difference. */
  settings(body: Buffer): void {
    const count = body.length >= 4 ? body.readUInt32BE(0) : 0;
    for (let i = 0; i < count && 4 + 8 * (i + 1) <= body.length; i++) {
      const id = body.readUInt32BE(4 + 8 * i) & 0xffffff;
      if (id !== SETTINGS_INITIAL_WINDOW_SIZE) continue;
      const value = body.readUInt32BE(8 + 8 * i) & 0x7fffffff;
      const delta = value - this.#initial;
      this.#initial = value;
      for (const s of this.#streams.values()) s.window += delta;
      this.#enforced = true;
    }
    this.#pump();
  }

  /** A WINDOW_UPDATE: stream 0 is the session's window. */
  update(id: number, delta: number): void {
    this.#enforced = true;
    if (id === 0) this.#session += delta;
    else this.#stream(id).window += delta;
    this.#pump();
  }

  /** The stream is gone: what it still held fails with `error`. */
  close(id: number, error: Error): void {
    const s = this.#streams.get(id);
    this.#streams.delete(id);
    for (const p of s?.queue.splice(0) ?? []) p.callback(error);
  }

  closeAll(error: Error): void {
    for (const id of [...this.#streams.keys()]) this.close(id, error);
  }

  #stream(id: number): Outbound {
    let s = this.#streams.get(id);
    if (s === undefined) {
      s = { window: this.#initial, queue: [] };
      this.#streams.set(id, s);
    }
    return s;
  }

  /** Sends, stream by stream, as much queued data as the windows allow. */
  #pump(): void {
    for (const [id, s] of this.#streams) {
      while (s.queue.length > 0) {
        const head = s.queue[0] as Pending;
        const room = this.#enforced ? Math.min(s.window, this.#session) : Number.POSITIVE_INFINITY;
        const n = Math.min(head.data.length, room, MAX_DATA_FRAME);
        // Empty frames (a bare FIN) take no window.
        if (n <= 0 && head.data.length > 0) break;
        const chunk = head.data.subarray(0, n);
        head.data = head.data.subarray(n);
        s.window -= n;
        this.#session -= n;
        if (head.data.length > 0) {
          this.#emit(id, 0, chunk);
          continue;
        }
        s.queue.shift();
        this.#emit(id, head.flags, chunk, () => head.callback());
      }
    }
  }
}
