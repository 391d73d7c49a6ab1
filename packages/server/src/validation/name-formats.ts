/**
 * The name formats apimachinery checks object names against, with its messages. A format takes
 * the name and whether it is a generateName prefix, and answers the problems (empty when valid).
 * Lengths are UTF-8 bytes, as Go's len() counts them.
 */
export type NameFormat = (name: string, prefix: boolean) => string[];

const LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const SUBDOMAIN = `${LABEL}(\\.${LABEL})*`;
const DNS1035 = "[a-z]([-a-z0-9]*[a-z0-9])?";
const LABEL_RE = new RegExp(`^${LABEL}$`);
const SUBDOMAIN_RE = new RegExp(`^${SUBDOMAIN}$`);
const DNS1035_RE = new RegExp(`^${DNS1035}$`);

export const bytesOf = (s: string): number => Buffer.byteLength(s, "utf8");

/** apimachinery's RegexError: the message, examples and the regular expression. */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${re}')`;
}

const maxLength = (n: number) => `must be no more than ${n} characters`;

export function dns1123SubdomainProblems(value: string): string[] {
  const out: string[] = [];
  if (bytesOf(value) > 253) out.push(maxLength(253));
  if (!SUBDOMAIN_RE.test(value))
    out.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        SUBDOMAIN,
        "example.com",
      ),
    );
  return out;
}

export function dns1123LabelProblems(value: string): string[] {
  const out: string[] = [];
  if (bytesOf(value) > 63) out.push(maxLength(63));
  if (!LABEL_RE.test(value))
    out.push(
      SUBDOMAIN_RE.test(value)
        ? "must not contain dots"
        : regexError(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
            LABEL,
            "my-name",
            "123-abc",
          ),
    );
  return out;
}

export function dns1035LabelProblems(value: string): string[] {
  const out: string[] = [];
  if (bytesOf(value) > 63) out.push(maxLength(63));
  if (!DNS1035_RE.test(value))
    out.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035,
        "my-name",
        "abc-123",
      ),
    );
  return out;
}

/**
 * A generateName prefix may end in a dash: apimachinery replaces the last two characters by "a"
 * before checking (it drops the character before the dash too, which we keep for equal answers).
 */
export function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name;
}

const masked =
  (check: (v: string) => string[]): NameFormat =>
  (name, prefix) =>
    check(prefix ? maskTrailingDash(name) : name);

export const dnsSubdomain: NameFormat = masked(dns1123SubdomainProblems);
export const dnsLabel: NameFormat = masked(dns1123LabelProblems);
export const dns1035Label: NameFormat = masked(dns1035LabelProblems);

/** Names that only have to fit in a URL path segment (RBAC, and every kind after its own checks). */
export const pathSegment: NameFormat = (name) => {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  return ["/", "%"].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
};

/** CertificateSigningRequests: upstream does not care what a request is called. */
export const anyName: NameFormat = () => [];

/** DeviceClass and ReplicationController names: a DNS subdomain checked by the declarative format, which counts bytes. */
export const longName: NameFormat = (name) =>
  dns1123SubdomainProblems(name).map((m) => m.replace("253 characters", "253 bytes"));

/** IPAddress names are the address itself, in canonical form. */
export const ipAddressName: NameFormat = (name) => {
  const canonical = canonicalIp(name);
  if (canonical === undefined) return ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"];
  if (canonical === "leading-zero") return ["must not have leading 0s"];
  if (canonical === "mapped") return ["must not be an IPv4-mapped IPv6 address"];
  return canonical === name ? [] : [`must be in canonical form ("${canonical}")`];
};

function canonicalIp(value: string): string | undefined {
  if (isIPv4(value))
    return value.split(".").some((p) => p.length > 1 && p.startsWith("0")) ? "leading-zero" : value;
  if (!value.includes(":") || value.includes("%")) return undefined;
  try {
    // URL parsing writes IPv6 addresses in their RFC 5952 form.
    const host = new URL(`http://[${value}]/`).hostname.slice(1, -1);
    return /^::ffff:/i.test(host) && value.includes(".") ? "mapped" : host;
  } catch {
    return undefined;
  }
}

function isIPv4(v: string): boolean {
  const parts = v.split(".");
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}
