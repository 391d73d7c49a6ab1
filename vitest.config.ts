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
  },
});
