/** Small helpers shared by the benchmarks: percentiles, rates, memory, table output. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

export function summarize(
  latenciesMs: number[],
  wallMs: number,
): { count: number; perSec: number; p50: number; p99: number } {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    count: sorted.length,
    perSec: (sorted.length / wallMs) * 1000,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Runs `task` `total` times with `concurrency` in flight; returns per-call latencies in ms. */
export async function runConcurrent(
  total: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      await task(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
}

export function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
