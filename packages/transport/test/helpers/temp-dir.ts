import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";

/** A fresh temporary directory and a function that removes it. */
export function makeTempDir(prefix = "kubesdk-transport-"): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh temporary directory for each test of the calling file; `dir()` returns the current one. */
export function useTempDir(): () => string {
  let current: { dir: string; remove: () => void } | undefined;
  beforeEach(() => {
    current = makeTempDir();
  });
  afterEach(() => current?.remove());
  return () => {
    if (current === undefined) throw new Error("useTempDir: no test is running");
    return current.dir;
  };
}
