/** run-tests.ts hands the suite globs to vitest.config.ts in this variable, newline-separated. */
export const suitesEnvVar = "KUBESDK_REAL_SUITES";
