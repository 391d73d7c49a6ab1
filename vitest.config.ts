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
    // Workers keep their module cache between files, so the workspace sources are evaluated once
    // per worker instead of once per file (import 234 s → 40 s in CI's `pnpm test`; the contract
    // suites' ratio in docs/performance.md, "The test suites and the contract-suite ratio"). This
    // holds because no file mocks modules or leaves globals or process.env changed, and fixture
    // modules keep no per-file state at module level: they name things per calling file (e.g.
    // useCrdFixtures() in test/server/crd-fixtures.ts), since kube-apiserver may still be deleting
    // one file's CRDs when the next file in the same worker starts.
    isolate: false,
    // Transformed sources persist in node_modules/.experimental-vitest-cache, keyed by content,
    // module id and vite config, so a rerun (`pnpm vitest run FILES` while working, test-real.sh
    // on the same files, the contract-suite benchmark) skips transforming the workspace sources;
    // a clean checkout starts empty and fills it. No plugin here reads files beyond the module
    // itself, the case the cache cannot see.
    experimental: { fsModuleCache: true },
  },
});
