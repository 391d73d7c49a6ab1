/**
 * Kubernetes API version ordering ("v2" > "v1" > "v1beta2" > "v1beta1" > "v1alpha1" > "foo"):
 * GA before beta before alpha, higher numbers first within each; names that are not Kubernetes
 * versions sort last, alphabetically. Returns > 0 when `a` is preferred over `b`.
 */
export function compareKubeVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) {
    if (pa) return 1;
    if (pb) return -1;
    return a < b ? 1 : a > b ? -1 : 0;
  }
  return pa.stability - pb.stability || pa.major - pb.major || pa.minor - pb.minor;
}

const stabilityRank = { alpha: 0, beta: 1, "": 2 } as const;

function parse(version: string): { major: number; stability: number; minor: number } | undefined {
  const m = /^v([1-9]\d*)(?:(alpha|beta)([1-9]\d*))?$/.exec(version);
  if (!m) return undefined;
  const stability = stabilityRank[(m[2] ?? "") as keyof typeof stabilityRank];
  return { major: Number(m[1]), stability, minor: m[3] ? Number(m[3]) : 0 };
}
