/**
 * `pnpm docs:links`: checks the links of the generated documentation site (.cache/site, built by
 * `pnpm run docs`) and of the repository's Markdown (README.md, CHANGELOG.md, .changeset/README.md,
 * docs/, examples/), without network.
 *
 * - HTML: every relative href/src names a file that exists, and every fragment (`#id`, in-page or
 *   on another page) names an element id or anchor name of that page.
 * - Markdown: every relative link names a file or directory of the repository, and a fragment on a
 *   Markdown target names one of its headings (GitHub's heading slugs).
 * External links (any `scheme:`) are not fetched. Exits 1 and lists every broken link.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const siteDir = join(repoRoot, ".cache", "site");

interface Broken {
  readonly file: string;
  readonly link: string;
  readonly problem: string;
}

function walk(dir: string, keep: (path: string) => boolean, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, keep, out);
    else if (keep(path)) out.push(path);
  }
  return out;
}

const external = /^[a-z][a-z0-9+.-]*:/i;

function splitLink(link: string): { path: string; fragment: string | undefined } {
  const hash = link.indexOf("#");
  const path = (hash < 0 ? link : link.slice(0, hash)).replace(/\?.*$/, "");
  const fragment = hash < 0 ? undefined : decodeURIComponent(link.slice(hash + 1));
  return { path: decodeURIComponent(path), fragment };
}

// ---- HTML ----

const htmlIds = new Map<string, Set<string>>();

function idsOfHtml(file: string): Set<string> {
  let ids = htmlIds.get(file);
  if (!ids) {
    ids = new Set<string>();
    for (const m of readFileSync(file, "utf8").matchAll(/\s(?:id|name)="([^"]*)"/g)) {
      ids.add(decodeEntities(m[1] as string));
    }
    htmlIds.set(file, ids);
  }
  return ids;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function checkHtml(file: string, broken: Broken[]): number {
  const text = readFileSync(file, "utf8");
  let count = 0;
  for (const m of text.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const link = decodeEntities(m[1] as string);
    if (link === "" || external.test(link) || link.startsWith("//")) continue;
    count++;
    const { path, fragment } = splitLink(link);
    let target = path === "" ? file : resolve(dirname(file), path);
    if (path !== "" && existsSync(target) && statSync(target).isDirectory())
      target = join(target, "index.html");
    const rel = relative(siteDir, file);
    if (!existsSync(target)) {
      broken.push({ file: rel, link, problem: "no such file" });
      continue;
    }
    if (fragment && target.endsWith(".html") && !idsOfHtml(target).has(fragment)) {
      broken.push({ file: rel, link, problem: `no id "${fragment}" in ${relative(siteDir, target)}` });
    }
  }
  return count;
}

// ---- Markdown ----

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function markdownSlugs(text: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = (heading[1] as string)
      .replace(/<[^>]*>/g, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) slugs.add(m[1] as string);
  return slugs;
}

function checkMarkdown(file: string, broken: Broken[]): number {
  const text = readFileSync(file, "utf8").replace(/^(```|~~~)[\s\S]*?^\1/gm, "");
  let count = 0;
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const link = m[1] as string;
    if (external.test(link)) continue;
    count++;
    const { path, fragment } = splitLink(link);
    const target = path === "" ? file : resolve(dirname(file), path);
    const rel = relative(repoRoot, file);
    if (!existsSync(target)) {
      broken.push({ file: rel, link, problem: "no such file in the repository" });
      continue;
    }
    if (fragment && target.endsWith(".md") && !markdownSlugs(readFileSync(target, "utf8")).has(fragment)) {
      broken.push({ file: rel, link, problem: `no heading "#${fragment}" in ${relative(repoRoot, target)}` });
    }
  }
  return count;
}

function main(): number {
  const broken: Broken[] = [];
  const markdown = [
    join(repoRoot, "README.md"),
    join(repoRoot, "CHANGELOG.md"),
    join(repoRoot, ".changeset", "README.md"),
    ...walk(join(repoRoot, "docs"), (p) => p.endsWith(".md")),
    ...(existsSync(join(repoRoot, "examples"))
      ? walk(join(repoRoot, "examples"), (p) => p.endsWith(".md"))
      : []),
  ];
  let mdLinks = 0;
  for (const file of markdown) mdLinks += checkMarkdown(file, broken);

  if (!existsSync(join(siteDir, "index.html"))) {
    console.error("docs:links: .cache/site/index.html is missing; run `pnpm docs` first");
    return 1;
  }
  const pages = walk(siteDir, (p) => p.endsWith(".html"));
  let htmlLinks = 0;
  for (const file of pages) htmlLinks += checkHtml(file, broken);

  for (const b of broken) console.error(`  ${b.file}: ${b.link} (${b.problem})`);
  const summary =
    `docs:links: ${htmlLinks} relative links in ${pages.length} pages of .cache/site, ` +
    `${mdLinks} in ${markdown.length} Markdown files; ${broken.length} broken`;
  if (broken.length > 0) {
    console.error(summary);
    return 1;
  }
  console.log(summary);
  return 0;
}

process.exitCode = main();
