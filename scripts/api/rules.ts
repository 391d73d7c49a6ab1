/**
 * Rules on the public surface beyond "it changed" (run by `pnpm api:check`):
 *
 *  - one name per meaning: no two exported names (in any entries) are bound to one declaration,
 *    whether re-exported under another name (`export { a as b }`) or bound again
 *    (`export const b = a`);
 *  - no hidden types: a type that an exported declaration's signature names (a parameter, a
 *    result, a member, a base class) is itself exported by some public entry, so users can name it.
 *
 * Justified exceptions are listed, each with its reason, in scripts/api/allow-list.json; an entry
 * there that no longer matches anything fails the check too, so the list only shrinks.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import type { PackageEntry } from "./surface.js";

export interface RuleFinding {
  /** Stable text, matched against the allow-list. */
  readonly key: string;
  readonly message: string;
}

interface AllowListEntry {
  readonly key: string;
  readonly reason: string;
}

/** Entries whose names users are not promised (`./internal`): what they export does not count. */
export function isPublicEntry(entry: PackageEntry): boolean {
  return !entry.specifier.endsWith("/internal");
}

export function checkRules(
  root: string,
  program: ts.Program,
  entries: readonly PackageEntry[],
): RuleFinding[] {
  const checker = program.getTypeChecker();
  const exported = entries
    .filter(isPublicEntry)
    .map((entry) => ({ entry, symbols: exportsOf(program, checker, entry) }));
  return [...sameValueFindings(root, checker, exported), ...hiddenTypeFindings(root, checker, exported)];
}

/** Findings not in the allow-list, and allow-list keys that matched nothing. */
export function unexplained(
  root: string,
  findings: readonly RuleFinding[],
): { fresh: RuleFinding[]; stale: string[] } {
  const path = join(root, "scripts/api/allow-list.json");
  const allowed = JSON.parse(readFileSync(path, "utf8")) as AllowListEntry[];
  const keys = new Set(allowed.map((a) => a.key));
  const found = new Set(findings.map((f) => f.key));
  return {
    fresh: findings.filter((f) => !keys.has(f.key)),
    stale: [...keys].filter((k) => !found.has(k)),
  };
}

interface EntryExports {
  readonly entry: PackageEntry;
  readonly symbols: readonly ts.Symbol[];
}

function exportsOf(program: ts.Program, checker: ts.TypeChecker, entry: PackageEntry): ts.Symbol[] {
  const source = program.getSourceFile(entry.file);
  const moduleSymbol = source ? checker.getSymbolAtLocation(source) : undefined;
  return moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
}

function resolved(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** The declaration a value name is bound to: through `const b = a` to `a`'s. */
function boundTo(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  let current = resolved(checker, symbol);
  for (let hops = 0; hops < 5; hops++) {
    const declaration = current.valueDeclaration;
    if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer) break;
    const init = declaration.initializer;
    if (!ts.isIdentifier(init) && !ts.isPropertyAccessExpression(init)) break;
    const target = checker.getSymbolAtLocation(init);
    if (!target) break;
    current = resolved(checker, target);
  }
  return current;
}

function where(root: string, symbol: ts.Symbol): string {
  const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? "?";
  return `${relative(root, file)}#${symbol.name}`;
}

function sameValueFindings(
  root: string,
  checker: ts.TypeChecker,
  exported: readonly EntryExports[],
): RuleFinding[] {
  const namesByTarget = new Map<string, Set<string>>();
  for (const { symbols } of exported) {
    for (const symbol of symbols) {
      const target = boundTo(checker, symbol);
      if (target.flags & ts.SymbolFlags.Module) continue; // namespaces of generated types
      const key = where(root, target);
      namesByTarget.set(key, (namesByTarget.get(key) ?? new Set()).add(symbol.name));
    }
  }
  const findings: RuleFinding[] = [];
  for (const [target, names] of [...namesByTarget].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (names.size < 2) continue;
    const list = [...names].sort().join(", ");
    findings.push({
      key: `same-value ${list}`,
      message: `${list}: one declaration (${target}) under two names`,
    });
  }
  return findings;
}

function hiddenTypeFindings(
  root: string,
  checker: ts.TypeChecker,
  exported: readonly EntryExports[],
): RuleFinding[] {
  const visible = new Set<ts.Symbol>();
  const visibleFiles = new Set<string>();
  for (const { symbols } of exported) {
    for (const symbol of symbols) {
      const target = resolved(checker, symbol);
      visible.add(target);
      // `export type * as coreV1 from "./types/core.v1.js"`: every declaration of that file.
      for (const d of target.declarations ?? []) if (ts.isSourceFile(d)) visibleFiles.add(d.fileName);
    }
  }
  const packages = join(root, "packages");
  const isHidden = (symbol: ts.Symbol): boolean => {
    if (symbol.flags & ts.SymbolFlags.TypeParameter || visible.has(symbol)) return false;
    const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? "";
    if (!file.startsWith(packages) || file.includes("/node_modules/") || file.includes("/test/"))
      return false;
    return !visibleFiles.has(file);
  };
  const findings = new Map<string, RuleFinding>();
  for (const { symbols } of exported) {
    for (const symbol of symbols) {
      const target = resolved(checker, symbol);
      for (const hidden of referencedTypes(checker, target).filter(isHidden)) {
        const key = `hidden-type ${target.name} -> ${hidden.name}`;
        findings.set(key, {
          key,
          message: `${where(root, target)} names ${where(root, hidden)}, which no public entry exports`,
        });
      }
    }
  }
  return [...findings.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Symbols of the types a declaration's public signature names (not its bodies or private parts). */
function referencedTypes(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol[] {
  const found = new Set<ts.Symbol>();
  const visit = (node: ts.Node): void => {
    if (ts.isBlock(node) || isPrivateMember(node)) return;
    if (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node)) {
      // An initializer is an implementation; only a written type is part of the signature.
      if (node.type) visit(node.type);
      return;
    }
    const name = ts.isTypeReferenceNode(node)
      ? node.typeName
      : ts.isExpressionWithTypeArguments(node)
        ? node.expression
        : ts.isTypeQueryNode(node)
          ? node.exprName
          : undefined;
    if (name) {
      const target = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name);
      if (target) found.add(resolved(checker, target));
    }
    ts.forEachChild(node, visit);
  };
  for (const declaration of symbol.declarations ?? []) {
    if (ts.isSourceFile(declaration)) continue;
    visit(declaration);
  }
  return [...found];
}

function isPrivateMember(node: ts.Node): boolean {
  if (!ts.isClassElement(node)) return false;
  if (node.name && ts.isPrivateIdentifier(node.name)) return true;
  const flags = ts.getCombinedModifierFlags(node as ts.Declaration);
  return (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
}
