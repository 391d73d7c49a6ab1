/**
 * The default process of a simulated container: a tiny shell with `echo`, `cat`, `true`, `false`,
 * `sh -c` (commands split on `;`, `exit N`, `>&2`), `env`, `ls` and `tar cf -` / `tar xf -` over
 * the container's in-memory files. Anything else is "executable file not found".
 */
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import type { ProcessContext, ProcessOutcome } from "./types.js";

const write = (stream: NodeJS.WritableStream, text: string) =>
  new Promise<void>((resolve) => stream.write(text, () => resolve()));

/** Splits a command line into words, honouring single and double quotes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) words.push(m[1] ?? m[2] ?? m[3] ?? "");
  return words;
}

export async function runDefault(proc: ProcessContext): Promise<ProcessOutcome> {
  const [program, ...args] = proc.command;
  if (program === undefined) return { error: "no command given" };
  const builtin = await runBuiltin(proc, program, args);
  if (builtin !== undefined) return builtin;
  if (program === "sh" || program === "/bin/sh") {
    if (args[0] !== "-c" || args[1] === undefined) return runBuiltinOrCat(proc);
    return runScript(proc, args[1]);
  }
  return { error: `exec: "${program}": executable file not found in $PATH` };
}

async function runBuiltinOrCat(proc: ProcessContext): Promise<ProcessOutcome> {
  await copyOut(proc.stdin, proc.stdout);
  return 0;
}

async function runScript(proc: ProcessContext, script: string): Promise<ProcessOutcome> {
  let last: ProcessOutcome = 0;
  for (const statement of script
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s !== "")) {
    const words = splitWords(statement);
    const toStderr = words[words.length - 1] === ">&2";
    if (toStderr) words.pop();
    const [program, ...args] = words;
    if (program === undefined) continue;
    if (program === "exit") return Number(args[0] ?? 0);
    const target = toStderr ? { ...proc, stdout: proc.stderr } : proc;
    const result = await runBuiltin(target, program, args);
    if (result === undefined) {
      await write(proc.stderr, `sh: ${program}: not found\n`);
      last = 127;
    } else last = result;
  }
  return last;
}

async function runBuiltin(
  proc: ProcessContext,
  program: string,
  args: string[],
): Promise<ProcessOutcome | undefined> {
  switch (program) {
    case "echo":
      await write(proc.stdout, `${args.join(" ")}\n`);
      return 0;
    case "true":
      return 0;
    case "false":
      return 1;
    case "cat":
      return cat(proc, args);
    case "ls":
      for (const path of [...proc.files.keys()].sort()) await write(proc.stdout, `${path}\n`);
      return 0;
    case "tar":
      return runTar(proc, args);
    default:
      return undefined;
  }
}

async function cat(proc: ProcessContext, args: string[]): Promise<ProcessOutcome> {
  if (args.length === 0) {
    await copyOut(proc.stdin, proc.stdout);
    return 0;
  }
  for (const path of args) {
    const content = proc.files.get(normalize(path));
    if (content === undefined) {
      await write(proc.stderr, `cat: ${path}: No such file or directory\n`);
      return 1;
    }
    await new Promise<void>((resolve) => proc.stdout.write(content, () => resolve()));
  }
  return 0;
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

function tarDirectory(args: string[]): string {
  const at = args.indexOf("-C");
  return (at >= 0 ? args[at + 1] : undefined) ?? "/";
}

async function runTar(proc: ProcessContext, args: string[]): Promise<ProcessOutcome> {
  // Bundled flags as tar takes them: `cf`, `-cf`, `-xmf` (kubectl cp), `xf`…
  const mode = (args[0] ?? "").replace(/^-/, "");
  const dir = normalize(tarDirectory(args));
  if (mode.startsWith("c") && mode.endsWith("f")) {
    const names = args.slice(2).filter((arg, i, all) => arg !== "-C" && all[i - 1] !== "-C");
    return createArchive(proc, dir, names);
  }
  if (mode.startsWith("x") && mode.endsWith("f")) return extractArchive(proc, dir);
  await write(proc.stderr, "tar: only cf - and xf - are simulated\n");
  return 2;
}

async function createArchive(proc: ProcessContext, dir: string, names: string[]): Promise<ProcessOutcome> {
  const pack = tar.pack();
  const done = copyOut(pack, proc.stdout);
  let found = 0;
  for (const name of names) {
    const base = normalize(`${dir}/${name}`);
    for (const [path, content] of [...proc.files].sort(([a], [b]) => a.localeCompare(b))) {
      if (path !== base && !path.startsWith(`${base}/`)) continue;
      found++;
      // Member names are relative, as tar stores them ("Removing leading `/' from member names").
      const relative = `${name.replace(/\/+$/, "")}${path.slice(base.length)}`.replace(/^\/+/, "");
      pack.entry({ name: relative, size: content.length, mode: 0o644 }, content);
    }
  }
  pack.finalize();
  await done;
  if (found > 0) return 0;
  await write(proc.stderr, `tar: ${names.join(" ")}: Cannot stat: No such file or directory\n`);
  return 2;
}

async function extractArchive(proc: ProcessContext, dir: string): Promise<ProcessOutcome> {
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: unknown) => {
      chunks.push(c as Buffer);
    });
    stream.on("end", () => {
      if (header.type === "file") proc.files.set(normalize(`${dir}/${header.name}`), Buffer.concat(chunks));
      next();
    });
  });
  try {
    await pipeline(proc.stdin, extract);
    return 0;
  } catch (err) {
    await write(proc.stderr, `tar: ${(err as Error).message}\n`);
    return 2;
  }
}

// Copies a stream into stdout without ending it, resolving once every chunk was written.
async function copyOut(from: AsyncIterable<unknown>, to: NodeJS.WritableStream): Promise<void> {
  for await (const chunk of from) {
    await new Promise<void>((resolve, reject) =>
      to.write(chunk as Buffer, (err) => (err ? reject(err) : resolve())),
    );
  }
}
