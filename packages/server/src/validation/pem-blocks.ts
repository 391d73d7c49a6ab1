/**
 * PEM blocks as Go's encoding/pem finds them: each `-----BEGIN T-----` … `-----END T-----` block
 * with its type, whether it has headers (`Key: value` lines before the body), and its DER bytes.
 * A block whose body is not base64 is skipped, as pem.Decode skips it.
 */
export interface PemBlock {
  readonly type: string;
  readonly hasHeaders: boolean;
  readonly der: Buffer;
}

const BLOCK = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;

export function pemBlocks(text: string): PemBlock[] {
  const out: PemBlock[] = [];
  for (const m of text.matchAll(BLOCK)) {
    const lines = (m[2] as string).split(/\r?\n/);
    const headerLines: string[] = [];
    while (lines.length > 0 && (lines[0] as string).includes(":")) headerLines.push(lines.shift() as string);
    if (headerLines.length > 0 && lines[0] === "") lines.shift();
    const body = lines.join("").replace(/\s/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 !== 0) continue;
    out.push({ type: m[1] as string, hasHeaders: headerLines.length > 0, der: Buffer.from(body, "base64") });
  }
  return out;
}
