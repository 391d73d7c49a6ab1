/** Port numbers and IANA service names (container ports, probes, Services), as apimachinery checks them. */

/** IsValidPortNum. */
export function portNumberProblems(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ["must be between 1 and 65535, inclusive"];
}

/** IsValidPortName: at most 15 of [-a-z0-9], a letter, no "--", no dash at either end. */
export function portNameProblems(name: string): string[] {
  const out: string[] = [];
  if (name.length > 15) out.push("must be no more than 15 characters");
  if (!/^[-a-z0-9]+$/.test(name))
    out.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(name)) out.push("must contain at least one letter (a-z)");
  if (name.includes("--")) out.push("must not contain consecutive hyphens");
  if (name.startsWith("-") || name.endsWith("-")) out.push("must not begin or end with a hyphen");
  return out;
}
