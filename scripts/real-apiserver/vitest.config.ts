// vitest config for runs against the real kube-apiserver (run-tests.ts): the root
// config, but only the contract suites. Positional vitest filters cannot do this,
// since they are substring matches ("test/" also matches packages/*/test/).
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import rootConfig from "../../vitest.config.js";
import { suitesEnvVar } from "./suites-env.js";

const suites = (process.env[suitesEnvVar] ?? "").split("\n").filter((glob) => glob !== "");
if (suites.length === 0) throw new Error(`${suitesEnvVar} is empty: start this config through run-tests.ts`);

// A spread, not vite's mergeConfig, which would append to the root config's include list.
export default defineConfig({
  ...rootConfig,
  root: resolve(dirname(fileURLToPath(import.meta.url)), "../.."),
  // Type-level tests say nothing about a server; they run in the ordinary `pnpm test`.
  test: { ...rootConfig.test, include: suites, typecheck: { enabled: false } },
});
