/**
 * Serving certificate and key read from files and read again when they change (cert-manager and
 * Kubernetes Secret volumes replace them in place, the latter by swapping a symlink, so the
 * directories are watched, not the files). A pair that does not load — the key written but not
 * yet the certificate — is skipped: the previous pair stays until a matching one arrives.
 */
import { type FSWatcher, watch } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { createSecureContext } from "node:tls";

export interface CertificatePair {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface CertificateFilesOptions {
  readonly certFile: string;
  readonly keyFile: string;
  /** The CA that signed the certificate, for `caBundle` (read again with the pair). */
  readonly caFile?: string;
}

export async function readCertificateFiles(
  files: CertificateFilesOptions,
): Promise<CertificatePair & { caPem?: string }> {
  const [certPem, keyPem, caPem] = await Promise.all([
    readFile(files.certFile, "utf8"),
    readFile(files.keyFile, "utf8"),
    files.caFile === undefined ? undefined : readFile(files.caFile, "utf8"),
  ]);
  // Throws when the key does not belong to the certificate or either does not parse.
  createSecureContext({ cert: certPem, key: keyPem });
  return { certPem, keyPem, ...(caPem !== undefined ? { caPem } : {}) };
}

/**
 * Calls `onChange` with each new pair that loads; returns a function that stops watching. Events
 * arriving while a read is in progress cause one more read after it, so the last write is seen.
 */
export function watchCertificateFiles(
  files: CertificateFilesOptions,
  current: CertificatePair,
  onChange: (pair: CertificatePair & { caPem?: string }) => void,
  onError: (error: unknown) => void,
): () => void {
  let last = current;
  let reading = false;
  let again = false;
  const reload = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        try {
          const pair = await readCertificateFiles(files);
          if (pair.certPem !== last.certPem || pair.keyPem !== last.keyPem) {
            last = pair;
            onChange(pair);
          }
        } catch (err) {
          // A half-written pair (or a file briefly missing during a swap): wait for the next event.
          if (!again) onError(err);
        }
      } while (again);
    } finally {
      reading = false;
    }
  };
  const dirs = new Set(
    [files.certFile, files.keyFile, ...(files.caFile ? [files.caFile] : [])].map((f) => dirname(f)),
  );
  const watchers: FSWatcher[] = [...dirs].map((dir) =>
    watch(dir, { persistent: false }, () => void reload()),
  );
  return () => {
    for (const w of watchers) w.close();
  };
}
