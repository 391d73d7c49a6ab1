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
    // One worker process runs many files and keeps its module cache between them, so the
    // workspace sources (server, models, CEL, codecs) are evaluated once per worker instead of
    // once per file: importing them was most of the suite's time. Test files stay independent:
    // each starts its own server (test/support/target.ts), uses unique names, and none mocks
    // modules or leaves globals changed (the OpenTelemetry suites reset theirs in afterAll).
    isolate: false,
    // Transformed sources persist in node_modules/.experimental-vitest-cache, keyed by content,
    // module id and vite config, so a rerun (`pnpm vitest run FILES` while working, or
    // test-real.sh on the same files) skips transforming the workspace sources. No plugin here
    // reads files beyond the module itself, the case the cache cannot see.
    experimental: { fsModuleCache: true },
  },
});
