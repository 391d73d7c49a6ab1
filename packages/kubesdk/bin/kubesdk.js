#!/usr/bin/env node
// Launcher kept outside dist/ so package managers can link the bin before the first build.
import("../dist/cli.js")
  .then(
    async ({ main }) => {
      process.exitCode = await main(process.argv.slice(2));
    },
    (e) => {
      if (e && e.code === "ERR_MODULE_NOT_FOUND") {
        console.error("kubesdk: not built yet — run `pnpm build` in the repository first");
        process.exit(1);
      }
      throw e;
    },
  )
  .catch((error) => {
    console.error(`kubesdk: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
