/**
 * `pnpm codegen`: regenerates packages/models/src/generated from the pinned Kubernetes release.
 * `pnpm codegen:check`: generates in memory and compares byte-for-byte with the committed files;
 * exits 1 and lists the files that differ.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CodegenError } from "./errors.js";
import { generateModels } from "./generate.js";
import { diffTree, totalBytes, writeTree } from "./output.js";
import { repoRoot } from "./upstream.js";

const generatedDir = join(repoRoot, "packages", "models", "src", "generated");

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    console.error(`usage: codegen [--check] (unknown argument ${unknown[0]})`);
    return 2;
  }
  const started = performance.now();
  const check = argv.includes("--check");
  const tree = await generateModels({ updateGoMod: !check });
  if (check) {
    const differences = await diffTree(generatedDir, tree.files);
    if (differences.length > 0) {
      console.error(
        `generated code is out of date (Kubernetes ${tree.release.kubernetes}); run \`pnpm codegen\`:`,
      );
      for (const d of differences) console.error(`  ${d.problem}: packages/models/src/generated/${d.path}`);
      return 1;
    }
    console.log(`generated code is up to date (${tree.files.size} files)`);
    return 0;
  }
  await writeTree(generatedDir, tree.files);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const kib = (totalBytes(tree.files) / 1024).toFixed(0);
  const { types, resources, groups, protoMessages, wireFactFields } = tree.stats;
  console.log(
    `generated ${tree.files.size} files, ${kib} KiB, in ${seconds}s from Kubernetes ${tree.release.kubernetes}: ` +
      `${types} types, ${resources} resources in ${groups} groups, ${protoMessages} protobuf messages ` +
      `(Go facts for ${wireFactFields} of their fields)`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CodegenError) {
      console.error(`codegen failed [${error.code}]: ${error.message}`);
      if (error.cause) console.error(error.cause);
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  },
);
