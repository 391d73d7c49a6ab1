/**
 * Reads the public surface of every workspace package (the names its package.json `exports`
 * entries export) with the TypeScript compiler API, one line or block per exported name.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export interface PackageEntry {
  /** Directory name under packages/. */
  readonly dir: string;
  /** Import specifier, e.g. `@kubesdk/transport` or `@kubesdk/transport/internal`. */
  readonly specifier: string;
  /** Absolute path of the entry's source file (the `source` condition). */
  readonly file: string;
}

export interface ExportedName {
  readonly name: string;
  /** Declaration signature, possibly several lines. */
  readonly text: string;
  /** Where the name is declared (file and local name), to tell re-exports from different things. */
  readonly origin: string;
}

export interface EntrySurface {
  readonly entry: PackageEntry;
  readonly names: readonly ExportedName[];
}

interface PackageJson {
  readonly name: string;
  readonly exports?: Record<string, { readonly source?: string }>;
}

/** Every package entry with a `source` condition, by package directory then subpath. */
export function packageEntries(root: string): PackageEntry[] {
  const entries: PackageEntry[] = [];
  const dirs = readdirSync(join(root, "packages"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const dir of dirs) {
    const pkgPath = join(root, "packages", dir, "package.json");
    let pkg: PackageJson;
    try {
      pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as PackageJson;
    } catch {
      continue;
    }
    for (const [subpath, conditions] of Object.entries(pkg.exports ?? {})) {
      if (!conditions.source) continue;
      const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
      entries.push({ dir, specifier, file: join(root, "packages", dir, conditions.source) });
    }
  }
  return entries;
}

/** One program over the given entries' sources, with the repository's compiler options. */
export function surfaceProgram(root: string, entries: readonly PackageEntry[]): ts.Program {
  const configPath = join(root, "tsconfig.json");
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${configPath}`);
  return ts.createProgram({
    rootNames: entries.map((e) => e.file),
    options: { ...config.options, noEmit: true },
  });
}

/** The surfaces of the given entries, read with one program. */
export function readSurfaces(
  root: string,
  entries: readonly PackageEntry[],
  program: ts.Program = surfaceProgram(root, entries),
): EntrySurface[] {
  const checker = program.getTypeChecker();
  const printer = new Printer(checker, root);
  return entries.map((entry) => {
    const source = program.getSourceFile(entry.file);
    if (!source) throw new Error(`${entry.file}: not in the program`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const exports = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
    const names = exports
      .map((symbol) => ({
        name: symbol.name,
        text: printer.describe(symbol),
        origin: printer.origin(symbol),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { entry, names };
  });
}

const typeFlags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

class Printer {
  private readonly nodes = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly root: string,
  ) {}

  origin(exported: ts.Symbol): string {
    let symbol = exported.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(exported) : exported;
    // `type Status = metaV1.Status` re-states a type under the same name: the same meaning.
    const declaration = symbol.declarations?.[0];
    if (declaration && ts.isTypeAliasDeclaration(declaration) && ts.isTypeReferenceNode(declaration.type)) {
      let target = this.checker.getSymbolAtLocation(declaration.type.typeName);
      if (target && target.flags & ts.SymbolFlags.Alias) target = this.checker.getAliasedSymbol(target);
      if (target?.name === symbol.name && !declaration.type.typeArguments) symbol = target;
    }
    const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? "?";
    return `${relative(this.root, file)}#${symbol.name}`;
  }

  describe(exported: ts.Symbol): string {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.declarations ?? [];
    const file = declarations[0]?.getSourceFile().fileName ?? "";
    if (!(symbol.flags & ts.SymbolFlags.Module) && file.includes("/generated/types/")) {
      // Generated model types: their shape is guarded by `pnpm codegen:check`; here only which one.
      return `type ${exported.name} = ${symbol.name} from "${relative(this.root, file)}"`;
    }
    const parts: string[] = [];
    if (symbol.flags & ts.SymbolFlags.Class) parts.push(this.classText(exported.name, symbol));
    else if (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable))
      parts.push(this.valueText(exported.name, symbol));
    else if (symbol.flags & ts.SymbolFlags.Module && declarations.some(ts.isSourceFile))
      parts.push(this.namespaceText(exported.name, symbol));
    for (const d of declarations) {
      if (ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d) || ts.isEnumDeclaration(d)) {
        parts.push(this.nodeText(d));
      }
    }
    if (parts.length === 0) parts.push(`${ts.SymbolFlags[symbol.flags] ?? symbol.flags} ${exported.name}`);
    const renamed = exported.name !== symbol.name && !(symbol.flags & ts.SymbolFlags.Module);
    return renamed ? `// alias of ${symbol.name}\n${parts.join("\n")}` : parts.join("\n");
  }

  private nodeText(node: ts.Node): string {
    const text = this.nodes.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile());
    return text.replace(/^export (declare )?/, "").replace(/^declare /, "");
  }

  private valueText(name: string, symbol: ts.Symbol): string {
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (!declaration) return `value ${name}`;
    const type = this.checker.getTypeOfSymbolAtLocation(symbol, declaration);
    if (symbol.flags & ts.SymbolFlags.Function) {
      return type
        .getCallSignatures()
        .map((s) => `function ${name}${this.checker.signatureToString(s, undefined, typeFlags)}`)
        .join("\n");
    }
    const keyword = ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const ? "const" : "let";
    return `${keyword} ${name}: ${this.checker.typeToString(type, undefined, typeFlags)}`;
  }

  private classText(name: string, symbol: ts.Symbol): string {
    const declaration = symbol.declarations?.find(ts.isClassDeclaration);
    if (!declaration) return `class ${name}`;
    const source = declaration.getSourceFile();
    const print = (n: ts.Node) => this.nodes.printNode(ts.EmitHint.Unspecified, n, source);
    const abstract = ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Abstract ? "abstract " : "";
    const params = declaration.typeParameters?.map(print).join(", ");
    const heritage = declaration.heritageClauses?.map((h) => print(h).trim()).join(" ");
    const head = `${abstract}class ${name}${params ? `<${params}>` : ""}${heritage ? ` ${heritage}` : ""}`;
    const lines = [`${head} {`];
    const staticType = this.checker.getTypeOfSymbolAtLocation(symbol, declaration);
    for (const s of staticType.getConstructSignatures()) {
      const text = this.checker.signatureToString(s, undefined, typeFlags);
      lines.push(`  constructor${text.replace(/: [^:]*$/s, "")};`);
    }
    for (const member of this.checker.getPropertiesOfType(staticType)) {
      if (member.name === "prototype" || !this.isPublic(member)) continue;
      lines.push(`  static ${this.memberText(member, declaration)}`);
    }
    const instanceType = this.checker.getDeclaredTypeOfSymbol(symbol);
    for (const member of this.checker.getPropertiesOfType(instanceType)) {
      if (!this.isPublic(member)) continue;
      lines.push(`  ${this.memberText(member, declaration)}`);
    }
    lines.push("}");
    return lines.join("\n");
  }

  private isPublic(member: ts.Symbol): boolean {
    if (member.name.startsWith("#") || member.name.startsWith("__#")) return false;
    const file = member.declarations?.[0]?.getSourceFile().fileName ?? "";
    if (file.includes("/node_modules/") || !file.startsWith(this.root)) return false;
    const flags = member.declarations?.[0] ? ts.getCombinedModifierFlags(member.declarations[0]) : 0;
    return (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0;
  }

  private memberText(member: ts.Symbol, at: ts.Node): string {
    const type = this.checker.getTypeOfSymbolAtLocation(member, at);
    const declaration = member.declarations?.[0];
    const getterOnly =
      member.flags & ts.SymbolFlags.GetAccessor && !(member.flags & ts.SymbolFlags.SetAccessor);
    const readonly =
      getterOnly || (declaration && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly);
    const isMethod =
      declaration && (ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration));
    const inherited = declaration ? this.inheritedFrom(declaration, at) : "";
    if (isMethod) {
      return type
        .getCallSignatures()
        .map((s) => `${member.name}${this.checker.signatureToString(s, undefined, typeFlags)};${inherited}`)
        .join(`\n  `);
    }
    const optional = member.flags & ts.SymbolFlags.Optional ? "?" : "";
    const text = this.checker.typeToString(type, undefined, typeFlags);
    return `${readonly ? "readonly " : ""}${member.name}${optional}: ${text};${inherited}`;
  }

  private inheritedFrom(declaration: ts.Node, at: ts.Node): string {
    const owner = declaration.parent;
    if (owner === at || !owner) return "";
    const ownerName =
      ts.isClassLike(owner) || ts.isInterfaceDeclaration(owner) ? owner.name?.text : undefined;
    return ownerName ? ` // from ${ownerName}` : "";
  }

  private namespaceText(name: string, symbol: ts.Symbol): string {
    const count = this.checker.getExportsOfModule(symbol).length;
    const file = symbol.declarations?.find(ts.isSourceFile)?.fileName;
    const from = file ? ` from "${relative(this.root, file)}"` : "";
    // Namespaces hold generated types, guarded by `pnpm codegen:check`: only their number here.
    return `namespace ${name}${from} (${count} names)`;
  }
}
