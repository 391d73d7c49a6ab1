/**
 * Go's url.ParseRequestURI as kube-apiserver's `uri` format and CEL's `format.uri()` use it: the
 * problems it reports, in its words, or none. Hand-written: WHATWG's URL parser (Node's) accepts
 * and refuses other strings. What Go checks: a scheme (or an absolute path, or `*`); after
 * `scheme://`, the port is digits, the host has no character Go would escape, the userinfo only
 * its allowed characters; every `%` starts a valid escape (and in a host, only `%25` or a
 * non-ASCII byte). Opaque forms (`mailto:x`) and queries are not checked.
 */

/** ASCII characters a host may hold besides letters and digits (Go's shouldEscape for hosts). */
const HOST_CHARS = new Set("!$&'()*+,;=:[]<>\"-_.~");
const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;
const isHex = (c: string | undefined) => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

/** Go's unescape: the first bad escape, or in a host the first character it refuses. */
function unescapeProblem(s: string, host: boolean): string | undefined {
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "%") {
      if (!isHex(s[i + 1]) || !isHex(s[i + 2]))
        return `invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`;
      // In a host, an escape must stand for a non-ASCII byte, or be %25 (a zone's `%`).
      if (host && Number.parseInt(s[i + 1] as string, 16) < 8 && s.slice(i, i + 3) !== "%25")
        return `invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`;
      i += 2;
    } else if (host && c.charCodeAt(0) < 0x80 && !/[A-Za-z0-9]/.test(c) && !HOST_CHARS.has(c)) {
      return `invalid character ${JSON.stringify(c)} in host name`;
    }
  }
  return undefined;
}

function hostProblem(host: string): string | undefined {
  let colon = host.lastIndexOf(":");
  if (host.startsWith("[")) {
    const close = host.lastIndexOf("]");
    if (close < 0) return "missing ']' in host";
    colon = host.length > close + 1 ? close + 1 : -1;
  }
  const port = colon >= 0 ? host.slice(colon) : "";
  if (port !== "" && !/^:\d*$/.test(port)) return `invalid port ${JSON.stringify(port)} after host`;
  return unescapeProblem(host, !host.startsWith("["));
}

/** After `scheme:`: the authority (when `//` follows) and the path; the query is cut off first. */
function afterSchemeProblem(rest: string, hasScheme: boolean): string | undefined {
  const beforeQuery = rest.split("?")[0] as string;
  if (hasScheme && !beforeQuery.startsWith("/")) return undefined;
  if (!(hasScheme && beforeQuery.startsWith("//"))) return unescapeProblem(beforeQuery, false);
  const slash = beforeQuery.indexOf("/", 2);
  const authority = slash < 0 ? beforeQuery.slice(2) : beforeQuery.slice(2, slash);
  const at = authority.lastIndexOf("@");
  const why = hostProblem(authority.slice(at + 1));
  if (why) return why;
  if (at >= 0 && !USERINFO.test(authority.slice(0, at))) return "net/url: invalid userinfo";
  return slash < 0 ? undefined : unescapeProblem(beforeQuery.slice(slash), false);
}

export function requestUriProblems(s: string): string[] {
  const q = JSON.stringify(s);
  if (s === "") return [`parse ${q}: empty url`];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Go refuses ASCII control characters.
  if (/[\u0000-\u001f\u007f]/.test(s)) return [`parse ${q}: net/url: invalid control character in URL`];
  if (s === "*") return [];
  if (s.startsWith(":")) return [`parse ${q}: missing protocol scheme`];
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(s)?.[0];
  if (scheme === undefined && !s.startsWith("/")) return [`parse ${q}: invalid URI for request`];
  const why = afterSchemeProblem(s.slice(scheme?.length ?? 0), scheme !== undefined);
  return why ? [`parse ${q}: ${why}`] : [];
}
