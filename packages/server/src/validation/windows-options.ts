/**
 * Windows security context options (validateWindowsSecurityContextOptions upstream): the gMSA
 * credential spec's name and size, and the runAsUserName `[DOMAIN\]USER` format. Lengths are
 * UTF-8 bytes, as Go's len() counts them.
 */
import { type FieldError, invalid, isSet, obj, str } from "./field-errors.js";
import { bytesOf, dns1123SubdomainProblems } from "./name-formats.js";

const GMSA_MAX_KIB = 64;
const DOMAIN_MAX = 256;
const USER_MAX = 104;

/** POSIX [[:cntrl:]]: the ASCII control characters. */
const hasControl = (s: string): boolean => [...s].some((c) => c.charCodeAt(0) < 0x20 || c === "\x7f");
/** A NetBIOS domain: 1 to 15 characters, none of \ / : * ? " < > |, not starting with a dot. */
const NETBIOS = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
const DNS_LABEL = "[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?";
const DNS_DOMAIN = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`);
const USER_BAD_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const USER_DOTS_SPACES = /^[. ]+$/;

/** The problems of a runAsUserName, in upstream's order. */
function userNameProblems(name: string): string[] {
  if (name === "") return ["runAsUserName cannot be an empty string"];
  if (hasControl(name)) return ["runAsUserName cannot contain control characters"];
  const parts = name.split("\\");
  if (parts.length > 2) return ["runAsUserName cannot contain more than one backslash"];
  const [domain, user] = parts.length === 1 ? ["", parts[0] ?? ""] : [parts[0] ?? "", parts[1] ?? ""];
  const out: string[] = [];
  if (bytesOf(domain) >= DOMAIN_MAX)
    out.push(`runAsUserName's Domain length must be under ${DOMAIN_MAX} characters`);
  if (parts.length === 2 && !NETBIOS.test(domain) && !DNS_DOMAIN.test(domain))
    out.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
  if (user === "") out.push("runAsUserName's User cannot be empty");
  else if (bytesOf(user) > USER_MAX)
    out.push(`runAsUserName's User length must not be longer than ${USER_MAX} characters`);
  if (USER_DOTS_SPACES.test(user)) out.push("runAsUserName's User cannot contain only periods or spaces");
  if (USER_BAD_CHARS.test(user))
    out.push(`runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`);
  return out;
}

/** validateWindowsSecurityContextOptions, for the `windowsOptions` at `at`. */
export function windowsOptionsErrors(options: unknown, at: string): FieldError[] {
  if (!isSet(options)) return [];
  const w = obj(options);
  const out: FieldError[] = [];
  if (isSet(w.gmsaCredentialSpecName)) {
    const name = str(w.gmsaCredentialSpecName);
    for (const m of dns1123SubdomainProblems(name))
      out.push(invalid(`${at}.gmsaCredentialSpecName`, name, m));
  }
  if (isSet(w.gmsaCredentialSpec)) {
    const spec = str(w.gmsaCredentialSpec);
    if (spec === "")
      out.push(invalid(`${at}.gmsaCredentialSpec`, spec, "gmsaCredentialSpec cannot be an empty string"));
    else if (bytesOf(spec) > GMSA_MAX_KIB * 1024)
      out.push(
        invalid(
          `${at}.gmsaCredentialSpec`,
          spec,
          `gmsaCredentialSpec size must be under ${GMSA_MAX_KIB} KiB`,
        ),
      );
  }
  if (isSet(w.runAsUserName)) {
    const name = str(w.runAsUserName);
    for (const m of userNameProblems(name)) out.push(invalid(`${at}.runAsUserName`, name, m));
  }
  return out;
}
