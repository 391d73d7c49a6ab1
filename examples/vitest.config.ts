import { defineConfig } from "vitest/config";

// The example test suites (examples/*/*.test.ts), run by `pnpm examples`. Like the repository's own
// tests they import the workspace packages through the "source" export condition.
export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: {
    root: import.meta.dirname,
    include: ["*/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
