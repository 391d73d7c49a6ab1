/** Copying files to and from a container: a tar stream over exec (`tar cf -` / `tar xf -`). */
import { createReadStream, createWriteStream } from "node:fs";
import { lstat, mkdir, readdir } from "node:fs/promises";
import { basename, dirname, join, posix, relative, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { PodIoError } from "./errors.js";

/** Packs a local file or directory tree; entries are named from its base name. */
export async function packTree(source: string, into: Writable): Promise<void> {
  const pack = tar.pack();
  const done = pipeline(pack, into);
  const add = async (path: string, name: string): Promise<void> => {
    const stat = await lstat(path);
    if (stat.isDirectory()) {
      pack.entry({ name: `${name}/`, type: "directory", mode: stat.mode & 0o7777, mtime: stat.mtime });
      for (const child of (await readdir(path)).sort()) await add(join(path, child), `${name}/${child}`);
    } else if (stat.isFile()) {
      const entry = pack.entry({ name, size: stat.size, mode: stat.mode & 0o7777, mtime: stat.mtime });
      await pipeline(createReadStream(path), entry);
    }
  };
  try {
    await add(source, basename(resolve(source)));
    pack.finalize();
  } catch (err) {
    pack.destroy(err as Error);
  }
  await done;
}

/** Unpacks a tar stream under `target`; entries escaping it (absolute, "..") are refused. */
export async function unpackTree(archive: Readable, target: string): Promise<number> {
  const root = resolve(target);
  const extract = tar.extract();
  let files = 0;
  let refused: PodIoError | undefined;
  extract.on("entry", (header, stream, next) => {
    const name = posix.normalize(header.name);
    const path = resolve(root, ...name.split("/"));
    const inside = path === root || (relative(root, path) !== "" && !relative(root, path).startsWith(`..`));
    if (!inside || posix.isAbsolute(header.name)) {
      // Refused entries are skipped (the rest of the archive is still read) and fail the copy.
      refused ??= new PodIoError(
        "COPY_FAILED",
        `archive entry ${JSON.stringify(header.name)} escapes ${target}`,
      );
      stream.on("end", () => next()).resume();
      return;
    }
    const write = async () => {
      if (header.type === "directory") {
        await mkdir(path, { recursive: true });
        stream.resume();
      } else if (header.type === "file") {
        await mkdir(dirname(path), { recursive: true });
        await pipeline(stream, createWriteStream(path, { mode: header.mode ?? 0o644 }));
        files++;
      } else stream.resume();
    };
    write().then(
      () => next(),
      (err: Error) => next(err),
    );
  });
  try {
    await pipeline(archive, extract);
  } catch (err) {
    if (err instanceof PodIoError) throw err;
    throw new PodIoError("COPY_FAILED", `cannot unpack the archive: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (refused !== undefined) throw refused;
  return files;
}
