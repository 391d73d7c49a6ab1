import { defineConfig } from "vitest/config";

// Tests import workspace packages through the "source" export condition, so no
// build step is needed before `pnpm test`.
export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    typecheck: {
      enabled: true,
      include: ["packages/*/test/**/*.test-d.ts", "test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Each file gets fresh modules (vitest's default isolation). Sharing a worker's module cache
    // between files (`isolate: false`) cut import time from 234 s to 40 s, but fixture modules
    // hold per-file state at module level (CRD group names in test/server/crd-fixtures.ts and
    // crd-conversion-fixtures.ts), so a second file in the same worker reused a CRD name the first
    // was still deleting on kube-apiserver (docs/performance.md, "The test suites").
  },
});
