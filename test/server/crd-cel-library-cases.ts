/**
 * The rules of crd-cel-libraries.test.ts: constant expressions that hold when each library behaves
 * as the apiserver's (semver, named formats, strings.quote, IP and CIDR), rules on the fields of a
 * spec, and expressions the apiserver refuses when the CRD is written, with its message.
 */

/** Each must evaluate to true; together they pin valid and invalid inputs of every function. */
export const CONSTANT_RULES = [
  // semver: the strict grammar, normalization (leading "v", short versions, leading zeros).
  "isSemver('1.2.3') && !isSemver('v1.2.3') && !isSemver('1.2') && isSemver('v1.2', true) && isSemver('01.02.03', true) && !isSemver('01.2.3')",
  "isSemver('1.2.3-alpha.1+build.5') && !isSemver('1.2.3-01') && !isSemver('1.2.3-') && !isSemver('1.2-rc', true) && !isSemver('')",
  "!isSemver(' 1.2.3') && !isSemver('1.2.3 ') && !isSemver('1.2.3.4') && !isSemver('1.2.3-a..b') && !isSemver('1.2.3+') && isSemver('1.2.3+01') && isSemver('1.2.3-0a')",
  "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3",
  "semver('v01.2', true).minor() == 2 && semver('0001.0.0', true).major() == 1 && semver('1', true).minor() == 0",
  // Precedence: pre-releases rank below the release, numeric identifiers below alphanumeric ones.
  "semver('1.0.0-alpha').isLessThan(semver('1.0.0')) && !semver('1.0.0-alpha.2').isGreaterThan(semver('1.0.0-alpha.10'))",
  "semver('1.0.0-alpha.beta').compareTo(semver('1.0.0-alpha.1')) == 1 && semver('1.0.0-a.b').compareTo(semver('1.0.0-a')) == 1",
  "semver('1.2.3-rc.1+b.1').compareTo(semver('1.2.3-rc.1')) == 0 && semver('1.0.0+a') == semver('1.0.0+b')",
  // Named formats: none for a valid string, apimachinery's messages otherwise.
  "!format.dns1123Label().validate('a-b').hasValue() && !format.dns1123LabelPrefix().validate('a-').hasValue()",
  "format.named('dns1123Label').hasValue() && !format.named('nope').hasValue()",
  "format.dns1123Label().validate('a.b').orValue([]) == ['must not contain dots']",
  "format.dns1123Subdomain().validate('A.b').orValue([]) == [\"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\"]",
  "format.dns1035Label().validate('1a').orValue([]).size() == 1 && format.labelValue().validate('-a').orValue([]).size() == 1",
  "format.qualifiedName().validate('a/').orValue([''])[0] == 'name part must be non-empty'",
  "!format.uri().validate('http://a/b').hasValue() && format.uri().validate('a/b').orValue([]) == ['parse \"a/b\": invalid URI for request']",
  "format.uri().validate('').orValue([]) == ['parse \"\": empty url'] && format.uri().validate(':x').orValue([]) == ['parse \":x\": missing protocol scheme']",
  // Go's url.ParseRequestURI on the authority and escapes.
  "format.uri().validate('http://a b').orValue([]) == ['parse \"http://a b\": invalid character \" \" in host name'] && format.uri().validate('http://a:x/').orValue([]) == ['parse \"http://a:x/\": invalid port \":x\" after host']",
  "format.uri().validate('http://a/%zz').orValue([]) == ['parse \"http://a/%zz\": invalid URL escape \"%zz\"'] && !format.uri().validate('/x').hasValue() && !format.uri().validate('mailto:x').hasValue() && !format.uri().validate('http://u@a_b:80/p q?x y').hasValue()",
  "!format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue() && format.uuid().validate('x').orValue([]) == ['does not match the UUID format']",
  "!format.byte().validate('aGVsbG8=').hasValue() && format.byte().validate('aGVsbG8').orValue([]) == ['invalid base64']",
  // kube-openapi's strfmt: the empty string is not base64; a UUID's dashes are each optional.
  "format.byte().validate('').hasValue() && !format.byte().validate('YWJj').hasValue() && !format.uuid().validate('123e4567e89b-12d3a456-426614174000').hasValue()",
  "!format.date().validate('2021-01-01').hasValue() && format.date().validate('2021-02-30').orValue([]) == ['invalid date']",
  "!format.datetime().validate('2021-01-01T00:00:00Z').hasValue() && format.datetime().validate('x').orValue([]) == ['invalid datetime']",
  "!format.datetime().validate('2021-01-01t00:00:00z').hasValue() && format.datetime().validate('2021-01-01 00:00:00Z').hasValue() && format.datetime().validate('2021-01-01T00:00:00+0100').hasValue()",
  // strings.quote escapes quotes, backslashes and control characters.
  "strings.quote('a\"b\\n\\\\') == '\"a\\\\\"b\\\\n\\\\\\\\\"' && strings.quote('\\t\\u00e9\\u0007') == '\"\\\\t\\u00e9\\\\a\"'",
  // IP: canonical forms, the address predicates as Go's netip decides them.
  "ip.isCanonical('2001:db8::abcd') && !ip.isCanonical('2001:DB8::ABCD') && !ip.isCanonical('2001:db8::0:0:0:abcd') && ip.isCanonical('127.0.0.1')",
  "ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified() && ip('0:0::1').isLoopback() && ip('127.1.2.3').isLoopback() && !ip('1.2.3.4').isLoopback()",
  "ip('ff02::1').isLinkLocalMulticast() && !ip('ff01::1').isLinkLocalMulticast() && ip('224.0.0.1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast()",
  "ip('fe80::1').isLinkLocalUnicast() && ip('169.254.1.1').isLinkLocalUnicast() && !ip('fec0::1').isLinkLocalUnicast()",
  "ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && !ip('ff00::1').isGlobalUnicast() && ip('2001:db8::1').isGlobalUnicast()",
  "!isIP('::ffff:1.2.3.4') && !isIP('fe80::1%eth0') && !isIP('01.2.3.4') && !isCIDR('::ffff:1.2.3.4/120') && !isCIDR('1.2.3.4/08')",
  // CIDR: containment, masking, string forms, equality.
  "cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24') && !cidr('192.168.1.0/24').containsCIDR(cidr('192.168.2.0/24')) && !cidr('10.0.0.0/8').containsCIDR('::/0')",
  "cidr('1.2.3.0/24').containsIP('1.2.3.4') && !cidr('1.2.3.0/24').containsIP('::1') && cidr('1.2.3.4/32').ip() == ip('1.2.3.4')",
  "string(ip('2001:DB8::0:0:0:abcd')) == '2001:db8::abcd' && string(cidr('192.168.0.1/24')) == '192.168.0.1/24' && string(cidr('192.168.0.1/24').masked()) == '192.168.0.0/24'",
  "ip('::1') == ip('0::1') && !(ip('::1') == ip('::2')) && !(cidr('1.2.3.4/24') == cidr('1.2.3.0/24')) && quantity('1') == quantity('1000m')",
  // The lists extension.
  "[3,1,2].sort() == [1,2,3] && ['b','a'].sort() == ['a','b'] && [1,2,2,1].distinct() == [1,2] && [1,2].reverse() == [2,1]",
  "lists.range(3) == [0,1,2] && lists.range(0) == [] && [1,2,3].slice(1,2) == [2] && [1,2,3].slice(0,0) == []",
  "[[1],[2,3]].flatten() == [1,2,3] && [1,2].first().value() == 1 && [1,2].last().value() == 2",
  // string() of durations and timestamps, a field named in backticks.
  "string(duration('90s')) == '90s' && string(duration('-1.5s')) == '-1.5s' && string(duration('1ms')) == '0.001s'",
  "string(timestamp('2020-01-01T00:00:00Z')) == '2020-01-01T00:00:00Z' && string(timestamp('2020-01-01T00:00:00.120Z')) == '2020-01-01T00:00:00.12Z'",
  "!has(self.ver) || self.`ver`.size() > 0",
];

/** Rules on the spec's fields, with the message each failure carries. */
export const SPEC_RULES = [
  { rule: "!has(self.ver) || isSemver(self.ver, true)", message: "ver is not a version" },
  {
    rule: "!has(self.ver) || !isSemver(self.ver, true) || semver(self.ver, true).isGreaterThan(semver('1.0.0'))",
    message: "ver must be above 1.0.0",
  },
  { rule: "!has(self.strict) || semver(self.strict).major() < 100", message: "strict major below 100" },
  {
    rule: "!has(self.addr) || (isIP(self.addr) && ip.isCanonical(self.addr))",
    message: "addr not canonical",
  },
  {
    rule: "!has(self.addr) || !isIP(self.addr) || ip(self.addr).isGlobalUnicast()",
    message: "addr not global",
  },
  { rule: "!has(self.zoned) || ip(self.zoned).family() == 6", message: "zoned must be IPv6" },
  { rule: "!has(self.net) || cidr('10.0.0.0/8').containsCIDR(self.net)", message: "net outside 10.0.0.0/8" },
  {
    rule: "!has(self.name) || !format.dns1123Label().validate(self.name).hasValue()",
    message: "name not a label",
  },
  { rule: "!has(self.name) || strings.quote(self.name) != '\"root\"'", message: "name must not be root" },
  { rule: "!has(self.timeout) || self.timeout <= duration('1h')", message: "timeout above an hour" },
  {
    rule: "!has(self.items) || self.items.size() == 0 || has(self.items[0].x)",
    message: "first item lacks x",
  },
  {
    rule: "!has(self.items) || self.items.size() < 3 || self.items.slice(0, 3).size() == 3",
    message: "three items slice to three",
  },
  {
    rule: "!has(self.strict) || self.strict != '1.2' || [1, 2].slice(1, 3).size() == 0",
    message: "slice past the end",
  },
];

export const SPEC_SCHEMA = {
  type: "object",
  "x-kubernetes-validations": [
    ...CONSTANT_RULES.map((rule, i) => ({ rule, message: `constant ${i}` })),
    ...SPEC_RULES,
  ],
  properties: {
    ver: { type: "string", maxLength: 32 },
    strict: { type: "string", maxLength: 32 },
    addr: { type: "string", maxLength: 45 },
    zoned: { type: "string", maxLength: 45 },
    net: { type: "string", maxLength: 49 },
    name: { type: "string", maxLength: 63 },
    timeout: { type: "string", format: "duration" },
    items: {
      type: "array",
      maxItems: 4,
      items: { type: "object", properties: { x: { type: "string", maxLength: 8 } } },
    },
  },
};

const valid = { ver: "v1.2", strict: "2.0.0-rc.1", addr: "2001:db8::1", zoned: "fe80::1" };
const invalid = { ver: "0.9", addr: "2001:DB8::1", net: "11.0.0.0/16", name: "root", timeout: "1h30m" };
const zoneError =
  'IP address "fe80::1%eth0" with zone value is not allowed evaluating rule: zoned must be IPv6';
const mappedError =
  'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed evaluating rule: zoned must be IPv6';

/** Specs and the messages of the rules that fail on them, in rule order. */
export const OUTCOMES: { name: string; spec: Record<string, unknown>; failures: string[] }[] = [
  {
    name: "accepts values every library rule holds for",
    spec: { ...valid, net: "10.1.0.0/16", name: "web-1", timeout: "30m", items: [{ x: "a" }, {}] },
    failures: [],
  },
  {
    name: "reports the rules failing on semver, IP, CIDR, quote, duration and has() inputs",
    spec: { ...invalid, items: [{}, { x: "a" }] },
    failures: [
      "ver must be above 1.0.0",
      "addr not canonical",
      "net outside 10.0.0.0/8",
      "name must not be root",
      "timeout above an hour",
      "first item lacks x",
    ].map((m) => `Invalid value: ${m}`),
  },
  {
    name: "reports a name the DNS label format refuses, and a string that is no version",
    spec: { ver: "x", addr: "127.0.0.1", name: "Web", timeout: "90s" },
    failures: ["ver is not a version", "addr not global", "name not a label"].map(
      (m) => `Invalid value: ${m}`,
    ),
  },
  {
    name: "reports the library's evaluation errors: a short strict version, a zone",
    spec: { strict: "1.2", zoned: "fe80::1%eth0" },
    failures: [
      `No Major.Minor.Patch elements found evaluating rule: strict major below 100`,
      zoneError,
      "cannot slice(1, 3), list is length 2 evaluating rule: slice past the end",
    ].map((m) => `Invalid value: "object": ${m}`),
  },
  {
    name: "reports an IPv4-mapped address as an evaluation error",
    spec: { zoned: "::ffff:1.2.3.4" },
    failures: [`Invalid value: "object": ${mappedError}`],
  },
];

/** Rules the apiserver refuses when the CRD is written, and the end of its message. */
export const REFUSED: [string, string][] = [
  ["strings.quote(1) == ''", "1:14: found no matching overload for 'strings.quote' applied to '(int)'"],
  [
    "semver('1.0.0', 1).major() == 1",
    "1:7: found no matching overload for 'semver' applied to '(string, int)'",
  ],
  ["isSemver(1)", "1:9: found no matching overload for 'isSemver' applied to '(int)'"],
  ["format.named(1).hasValue()", "1:13: found no matching overload for 'format.named' applied to '(int)'"],
  [
    "format.dns1123Label().validate(1).hasValue()",
    "1:31: found no matching overload for 'validate' applied to 'kubernetes.NamedFormat.(int)'",
  ],
  ["ip.isCanonical(1)", "1:15: found no matching overload for 'ip.isCanonical' applied to '(int)'"],
  [
    "ip('::1').isUnspecified(1)",
    "1:24: found no matching overload for 'isUnspecified' applied to 'net.IP.(int)'",
  ],
  [
    "cidr('::/0').containsCIDR(1)",
    "1:26: found no matching overload for 'containsCIDR' applied to 'net.CIDR.(int)'",
  ],
  // The strings extension the apiserver enables (version 2) has no reverse.
  ["'abc'.reverse() == 'cba'", "1:14: found no matching overload for 'reverse' applied to 'string.()'"],
  ["self.timeout == 'PT1H'", "1:14: found no matching overload for '_==_' applied to '(duration, string)'"],
];
