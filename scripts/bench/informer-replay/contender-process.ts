/**
 * A contender's process: runs one contender (argv: name, RunInput as JSON) and sends its result to
 * the parent. Compiled to plain JavaScript before the benchmark starts, so the contenders run on
 * bare Node as users run them: no TypeScript loader and no source maps, which otherwise add tens of
 * MiB to every contender's memory.
 */
import { type Contender, runContender } from "./contenders.js";

const [which, input] = process.argv.slice(2);
const result = await runContender(which as Contender, JSON.parse(input as string));
process.send?.(result, () => process.exit(0));
