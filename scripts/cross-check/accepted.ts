/**
 * The accepted differences: a fenced block in docs/divergences.md that starts
 * with "```yaml cross-check-accepted" and holds a YAML list of
 * `{ id: <pattern>, divergence: <entry id> }`. A pattern matches difference
 * ids (`<client>/<step>:<path>`); `*` stands for any run of characters.
 */
import { readFile } from "node:fs/promises";
import YAML from "yaml";
import { CrossCheckError } from "./step-result.js";

export interface AcceptedDifference {
  readonly id: string;
  readonly divergence: string;
  readonly matches: (differenceId: string) => boolean;
}

const fence = /^```yaml cross-check-accepted\n([\s\S]*?)^```$/m;

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}

export function parseAccepted(markdown: string, source: string): AcceptedDifference[] {
  const block = fence.exec(markdown);
  if (!block) {
    throw new CrossCheckError(
      "ACCEPTED_LIST_INVALID",
      `${source} has no "\`\`\`yaml cross-check-accepted" block`,
    );
  }
  const parsed: unknown = YAML.parse(block[1] ?? "");
  if (!Array.isArray(parsed)) {
    throw new CrossCheckError(
      "ACCEPTED_LIST_INVALID",
      `${source}: the cross-check-accepted block is not a list`,
    );
  }
  return parsed.map((entry: unknown, index) => {
    const { id, divergence } = (entry ?? {}) as { id?: unknown; divergence?: unknown };
    if (typeof id !== "string" || id === "" || typeof divergence !== "string" || divergence === "") {
      throw new CrossCheckError(
        "ACCEPTED_LIST_INVALID",
        `${source}: cross-check-accepted entry ${index} needs string fields id and divergence, got ${JSON.stringify(entry)}`,
      );
    }
    const pattern = globToRegExp(id);
    return { id, divergence, matches: (differenceId: string) => pattern.test(differenceId) };
  });
}

export async function loadAccepted(path: string): Promise<AcceptedDifference[]> {
  return parseAccepted(await readFile(path, "utf8"), path);
}
