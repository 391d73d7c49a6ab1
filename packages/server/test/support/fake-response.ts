import { EventEmitter } from "node:events";

/**
 * What a WatchStream reads of its response: the writes it made (copies), and whether it was ended or
 * cut. `takes: false` is a socket that takes nothing until `drain()`: each write fills its buffer.
 */
export class FakeResponse extends EventEmitter {
  readonly writes: Buffer[] = [];
  writableLength = 0;
  destroyed = false;
  ended = false;

  constructor(private readonly takes = true) {
    super();
  }

  write(chunk: Buffer): boolean {
    this.writes.push(Buffer.from(chunk));
    if (!this.takes) this.writableLength += chunk.length;
    return this.takes;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  drain(): void {
    this.writableLength = 0;
    this.emit("drain");
  }
}
