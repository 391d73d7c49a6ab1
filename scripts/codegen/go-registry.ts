/**
 * Reads short names, categories and singular names from the upstream REST storage sources
 * (k8s.io/kubernetes pkg/registry/**, plus the CRD and APIService registries). These live only in
 * Go code, so this is a deliberately small line-pattern reader rather than a Go parser: it picks
 * up `DefaultQualifiedResource: x.Resource("plural")`, `SingularQualifiedResource: x.Resource("s")`
 * and `ShortNames()` / `Categories()` methods that return a string-slice literal. Anything written
 * differently (a variable, a computed slice) is not understood and is left for the fallbacks.
 */
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { compareStrings } from "./shape.js";

export interface RegistryNames {
  /** Directory of the storage code relative to its registry root, e.g. "apps/deployment". */
  readonly source: string;
  readonly plural: string | undefined;
  readonly singular: string | undefined;
  readonly shortNames: readonly string[] | undefined;
  readonly categories: readonly string[] | undefined;
}

const pluralPattern = /DefaultQualifiedResource:\s*[\w.]+\.Resource\("([^"]+)"\)/g;
const singularPattern = /SingularQualifiedResource:\s*[\w.]+\.Resource\("([^"]+)"\)/g;

function methodPattern(method: string): RegExp {
  return new RegExp(
    `func \\(\\w+ \\*?\\w+\\) ${method}\\(\\) \\[\\]string \\{\\s*return \\[\\]string\\{([^}]*)\\}`,
    "g",
  );
}

export async function readRegistryNames(registryRoots: readonly string[]): Promise<RegistryNames[]> {
  const found: RegistryNames[] = [];
  for (const root of registryRoots) {
    for (const file of await goSources(root)) {
      const text = await readFile(file, "utf8");
      const plurals = matches(text, pluralPattern);
      const singulars = matches(text, singularPattern);
      const shortNames = stringLists(text, "ShortNames");
      const categories = stringLists(text, "Categories");
      if (plurals.length + singulars.length + shortNames.length + categories.length === 0) continue;
      // One storage per file is the upstream convention; a file with several is ambiguous, so only
      // its qualified names are kept.
      const single = plurals.length <= 1 && singulars.length <= 1;
      found.push({
        source: resourceDir(root, file),
        plural: single ? plurals[0] : undefined,
        singular: single ? singulars[0] : undefined,
        shortNames: single ? shortNames[0] : undefined,
        categories: single ? categories[0] : undefined,
      });
    }
  }
  return found.sort(
    (a, b) => compareStrings(a.source, b.source) || compareStrings(a.plural ?? "", b.plural ?? ""),
  );
}

/** The storage directory a file belongs to: ".../apps/deployment/storage/storage.go" → "apps/deployment". */
function resourceDir(root: string, file: string): string {
  let dir = dirname(file);
  while (["storage", "etcd", "rest"].includes(basename(dir)) && dir !== root) dir = dirname(dir);
  return relative(root, dir).split(sep).join("/");
}

async function goSources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await goSources(path)));
    else if (entry.name.endsWith(".go") && !entry.name.endsWith("_test.go")) out.push(path);
  }
  return out.sort(compareStrings);
}

function matches(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[1] as string);
}

function stringLists(text: string, method: string): string[][] {
  return [...text.matchAll(methodPattern(method))].map((m) =>
    [...(m[1] as string).matchAll(/"([^"]*)"/g)].map((s) => s[1] as string),
  );
}

export interface ResourceNames {
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
}

/**
 * Names for one resource: the storage whose plural matches, else whose singular is the lowercase
 * kind, else whose directory is the lowercase kind; singular falls back to the lowercase kind.
 */
export function namesFor(all: readonly RegistryNames[], plural: string, kind: string): ResourceNames {
  const lower = kind.toLowerCase();
  const entry =
    all.find((e) => e.plural === plural) ??
    all.find((e) => e.singular === lower) ??
    all.find((e) => e.source.split("/").at(-1) === lower);
  return {
    singular: entry?.singular ?? lower,
    shortNames: entry?.shortNames ?? [],
    categories: entry?.categories ?? [],
  };
}
