#!/usr/bin/env node
// Launcher kept outside dist/ so package managers can link the bin before the first build.
import("../dist/cli.js").catch((e) => {
  if (e && e.code === "ERR_MODULE_NOT_FOUND") {
    console.error("kubesdk-server: not built yet — run `pnpm build` in the repository first");
    process.exit(1);
  }
  throw e;
});
