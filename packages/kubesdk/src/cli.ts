/**
 * The `kubesdk` command. One command so far:
 *
 *   kubesdk gen types <file|dir|->... [-o out.ts] [--import-from kubesdk]
 *   kubesdk gen types --from-cluster [--kubeconfig path] [-o out.ts]
 *
 * writes TypeScript (TypeBox schemas, `defineCustomResource` definitions and object types) for
 * CustomResourceDefinitions; see docs/guides/custom-resources.md.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { generateTypes } from "./gen/generate.js";
import { readClusterCrds, readManifestSources } from "./gen/sources.js";

const USAGE = `usage: kubesdk gen types <file|dir|->... [-o out.ts] [--import-from module]
       kubesdk gen types --from-cluster [--kubeconfig path] [-o out.ts] [--import-from module]`;

/** Runs the command line `args` (without node and the script); resolves with the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      out: { type: "string", short: "o" },
      "from-cluster": { type: "boolean" },
      kubeconfig: { type: "string" },
      "import-from": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [group, command, ...inputs] = positionals;
  if (values.help || group !== "gen" || command !== "types") {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const fromCluster = values["from-cluster"] === true;
  if (fromCluster === inputs.length > 0) {
    process.stderr.write(`kubesdk gen types: give files, directories or "-", or --from-cluster\n${USAGE}\n`);
    return 2;
  }
  const objects = fromCluster
    ? await readClusterCrds(values.kubeconfig !== undefined ? { path: values.kubeconfig } : {})
    : await readManifestSources(inputs);
  const code = generateTypes(objects, {
    source: fromCluster ? "the cluster's CRDs" : inputs.join(", "),
    ...(values["import-from"] !== undefined ? { importFrom: values["import-from"] } : {}),
  });
  if (values.out !== undefined) await writeFile(values.out, code);
  else process.stdout.write(code);
  return 0;
}
