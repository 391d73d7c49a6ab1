// The root error class lives in @kubesdk/models (the lowest package); transport re-exports it.
export { CodedError, KubesdkError } from "@kubesdk/models";

/** Shortens text for error messages: at most `max` characters, control characters made visible. */
export function excerpt(text: string, max = 200): string {
  const head = text.length > max ? text.slice(0, max) : text;
  let clean = "";
  // Control characters (other than tab) would break one-line log output.
  for (const ch of head) {
    const c = ch.charCodeAt(0);
    if (ch === "\n") clean += "\\n";
    else if ((c < 0x20 && ch !== "\t") || c === 0x7f) clean += "\uFFFD";
    else clean += ch;
  }
  return text.length > max ? `${clean}…` : clean;
}

/** Shortens bytes for error messages; invalid UTF-8 becomes U+FFFD instead of failing. */
export function excerptBytes(bytes: Uint8Array, max = 200): string {
  // Decode a little more than needed so a cut multi-byte sequence only affects the tail.
  const head = bytes.subarray(0, max * 4);
  return excerpt(new TextDecoder("utf-8", { fatal: false }).decode(head), max);
}

/** Hex of the first bytes of a binary body (protobuf), for error messages. */
export function hexExcerpt(bytes: Uint8Array, max = 32): string {
  return Buffer.from(bytes.subarray(0, max)).toString("hex") + (bytes.length > max ? "…" : "");
}

/** Formats a path like `users[0].user.exec.apiVersion` from path segments. */
export function formatFieldPath(segments: readonly PropertyKey[]): string {
  let out = "";
  for (const s of segments) {
    if (typeof s === "number") out += `[${s}]`;
    else out += out === "" ? String(s) : `.${String(s)}`;
  }
  return out;
}
