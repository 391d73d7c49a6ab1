import { readFile, stat } from "node:fs/promises";

/** Options of {@link StatCachedFile}. */
export interface StatCachedFileOptions {
  /** Minimum time between two stat calls (default 1000 ms); 0 stats on every read. */
  readonly recheckIntervalMs?: number;
  /** Monotonic clock in ms, injectable for tests. */
  readonly now?: () => number;
}

// File timestamps tick coarsely (a few ms on Linux), so a same-size rewrite right after a read can
// leave the stat unchanged. Content read within this window of its mtime is re-read on the next
// check ("racy" in git's sense) until it is old enough to trust.
const RACY_WINDOW_MS = 2000;

/**
 * A small file (token) whose content is re-read only when a stat shows it changed. Kubelet rotates
 * projected tokens by swapping a symlink, which changes the inode; editors change mtime or size.
 */
export class StatCachedFile {
  readonly path: string;
  readonly #intervalMs: number;
  readonly #now: () => number;
  #signature: string | undefined;
  #content: string | undefined;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #racy = false;
  #inflight: Promise<string> | undefined;

  constructor(path: string, options: StatCachedFileOptions = {}) {
    this.path = path;
    this.#intervalMs = options.recheckIntervalMs ?? 1000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** The content, re-read if the file changed; `recheck` skips the interval (used after a 401). */
  read(recheck = false): Promise<string> {
    const content = this.#content;
    if (!recheck && content !== undefined && this.#now() - this.#checkedAt < this.#intervalMs) {
      return Promise.resolve(content);
    }
    this.#inflight ??= this.#refresh().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #refresh(): Promise<string> {
    const s = await stat(this.path, { bigint: true });
    const signature = `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    this.#checkedAt = this.#now();
    if (signature === this.#signature && this.#content !== undefined && !this.#racy) return this.#content;
    const content = await readFile(this.path, "utf8");
    this.#signature = signature;
    this.#content = content;
    this.#racy = Date.now() - Number(s.mtimeMs) < RACY_WINDOW_MS;
    return content;
  }
}
