/**
 * Rule templates of the CEL differential suite, per schema node, with random
 * constants: the kinds of rules CRDs use (comparisons, string and list
 * functions, macros, regexes, sets, optionals, transition rules, the semver,
 * format, IP and CIDR libraries, durations), and the
 * message styles (default, message, messageExpression, reason, fieldPath).
 */
import type { Random } from "./random.js";

export type Node =
  | "spec"
  | "n"
  | "s"
  | "tags"
  | "tag"
  | "ports"
  | "port"
  | "labels"
  | "label"
  | "ratio"
  | "ios"
  | "v"
  | "d";

export interface Rule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

const str = (r: Random) => r.pick(["a", "b", "ab", "main", "x1", "bad", "z"]);

/** Expressions per node; each returns a bool. */
const TEMPLATES: Record<Node, ((r: Random) => string)[]> = {
  spec: [
    (r) => `!has(self.n) || self.n < ${r.int(0, 10)}`,
    (r) => `!has(self.s) || !has(self.n) || self.s.size() + self.n < ${r.int(3, 12)}`,
    () => "has(self.tags) == has(self.ports) || has(self.labels)",
    (r) => `self.?s.orValue('') != '${str(r)}'`,
    () => "!has(self.ports) || !has(self.tags) || self.ports.size() <= self.tags.size()",
    (r) => `!has(oldSelf.n) || !has(self.n) || self.n >= oldSelf.n - ${r.int(0, 2)}`,
    () => "has(self.flag) ? self.flag || !has(self.n) : true",
    (r) => `!has(self.n) || self.\`n\` < ${r.int(0, 10)}`,
  ],
  n: [
    () => "self / 2 < 4",
    () => "12 / self > 2",
    () => "self % 3 != 1",
    () => "duration('1h') > duration('30m') && self != 7",
    () => "[1, 2, 3].exists(x, x == self)",
    (r) => `self < ${r.int(0, 12)}`,
    () => "self % 2 == 0",
    (r) => `self >= ${r.int(-3, 3)} && self <= ${r.int(4, 12)}`,
    () => "self >= oldSelf",
    (r) => `self * ${r.int(2, 5)} != ${r.int(0, 20)}`,
    (r) => `int(string(self)) == self && string(self).size() <= ${r.int(1, 2)}`,
  ],
  s: [
    () => "isQuantity(self) || self.size() > 2",
    () => "self.charAt(0) != 'b'",
    () => "'%s!'.format([self]) != 'a!'",
    () => "self.lastIndexOf('a') < 1",
    () => "self.trim() == self && !self.endsWith('c')",
    () => "self.matches('(?i)^ab')",
    () => "!isURL(self) || self.size() > 3",
    (r) => `self.startsWith('${str(r)}')`,
    () => "self.matches('^[a-z]+$')",
    (r) => `self.size() <= ${r.int(0, 4)}`,
    () => "self.lowerAscii() == self",
    (r) => `!self.contains('${str(r)}')`,
    () => "self.split('-').size() < 3",
    (r) => `self.indexOf('${r.pick(["a", "b", "-"])}') < 2`,
    (r) => `self.replace('a', 'b') != '${str(r)}'`,
    () => "self.find('[0-9]+') == ''",
    () => "self == oldSelf",
    (r) => `self.upperAscii().endsWith('${r.pick(["A", "B", "1"])}') || self == ''`,
    () => "self.substring(0, self.size()) == self",
    (r) => `self.findAll('[a-z]').size() < ${r.int(1, 4)}`,
  ],
  tags: [
    () => "self.size() == 0 || self.min() != 'a'",
    () => "self.all(x, self.exists_one(y, y == x))",
    () => "self.map(x, x + '!').exists(x, x == 'z!')",
    (r) => `self.all(x, x.size() < ${r.int(1, 3)})`,
    (r) => `self.exists(x, x == '${str(r)}')`,
    () => "self.isSorted()",
    (r) => `self.size() <= ${r.int(0, 4)}`,
    (r) => `self.map(x, x.size()).sum() < ${r.int(2, 8)}`,
    () => "sets.contains(['a', 'b', 'ab'], self)",
    (r) => `sets.intersects(self, ['${str(r)}', '${str(r)}'])`,
    () => "self.indexOf('a') != 0",
    () => "self.filter(x, x.startsWith('a')).size() < 2",
    () => "self.exists_one(x, x == 'b') || !self.exists(x, x == 'b')",
    () => "self.size() == 0 || self.max() != 'z'",
    () => "self.join(',').size() < 6",
    () => "oldSelf.all(x, x in self)",
    () => "self.sort() == self || self.distinct().size() < 3",
    (r) => `self.reverse().first().orValue('') != '${str(r)}'`,
    () => "lists.range(self.size()).all(i, i < 4)",
    (r) => `self.size() < 2 || self.slice(0, 2).last().value() != '${str(r)}'`,
    () => "self.all(i, x, i == 0 || self[i - 1] <= x)",
    () => "self.sortBy(x, x) == self.sort()",
    () => "self.transformList(i, x, i % 2 == 0, x).size() <= 2",
    () => "self.existsOne(i, x, x == 'b') || !self.exists(i, x, x == 'b')",
  ],
  tag: [(r) => `self != '${str(r)}'`, () => "self.size() > 1", () => "self.matches('^[ab]')"],
  ports: [
    () => "self.exists_one(p, p.name == 'main')",
    () => "self.filter(p, has(p.port)).size() <= 2",
    () => "self.all(p, p.name.matches('^[a-z]+$') && p.name.size() > 1)",
    (r) => `self.all(p, p.port > ${r.pick([79, 100, 1024])})`,
    () => "self.exists(p, p.name == 'main')",
    () => "self.map(p, p.port).isSorted()",
    () => "self.all(p, !has(p.port) || p.port != 443)",
    () => "self.size() < 2 || self[0].name != self[1].name",
    () => "self.size() == 0 || has(self[0].port)",
    () => "self.transformMapEntry(i, p, {p.name: i}).size() == self.size()",
  ],
  port: [
    () => "!has(self.port) || self.port > 1024",
    (r) => `self.name.size() <= ${r.int(1, 4)}`,
    () => "!has(self.port) || !has(oldSelf.port) || self.port == oldSelf.port",
  ],
  labels: [
    () => "self.exists(k, self[k] == 'blue')",
    () => "self.map(k, self[k]).all(v, v.size() < 3)",
    () => "self == oldSelf || !('team' in oldSelf)",
    () => "self.all(k, k.size() < 4)",
    () => "'team' in self",
    (r) => `self.size() < ${r.int(1, 3)}`,
    () => "!('team' in self) || self['team'].size() < 4",
    () => "self.all(k, v, k.size() + v.size() < 8)",
    () => "self.transformMap(k, v, v.size()).exists(k, n, n > 2)",
  ],
  label: [() => "self.matches('^[a-z]*$')", () => "self != ''", (r) => `self.size() < ${r.int(1, 4)}`],
  ratio: [
    () => "int(self) < 5",
    () => "self > -1.0 || self < -2.0",
    (r) => `self < ${r.pick(["1.0", "2.5", "0.0"])}`,
    () => "self * 2.0 != 3.0",
  ],
  ios: [() => "type(self) == int", () => "type(self) == string || self > 10", () => "string(self) != '1'"],
  v: [
    (r) => `!isSemver(self, true) || semver(self, true).major() < ${r.int(0, 3)}`,
    () => "isSemver(self) || isIP(self) || isCIDR(self) || self.size() < 3",
    () => "!isSemver(self) || semver(self).isLessThan(semver('1.2.0'))",
    () => "!isSemver(self) || semver(self).compareTo(semver('1.0.0-rc.1')) >= 0",
    () => "semver(self, true).minor() >= 0",
    () => "!isIP(self) || ip.isCanonical(self)",
    () => "!isIP(self) || ip(self).isLoopback() || ip(self).isGlobalUnicast()",
    () => "!isIP(self) || !ip(self).isUnspecified()",
    (r) => `!isIP(self) || ip(self).family() == ${r.pick([4, 6])}`,
    (r) => `!isCIDR(self) || cidr(self).prefixLength() >= ${r.pick([8, 16, 24])}`,
    () => "!isCIDR(self) || cidr('10.0.0.0/8').containsCIDR(self)",
    () => "!isCIDR(self) || cidr(self).masked() == cidr(self)",
    () => "!format.dns1123Label().validate(self).hasValue()",
    (r) =>
      `!format.named('${r.pick(["labelValue", "dns1035Label", "qualifiedName", "uuid", "byte"])}').value().validate(self).hasValue()`,
    (r) => `strings.quote(self) != '"${str(r)}"'`,
  ],
  d: [
    (r) => `self < duration('${r.pick(["1m", "1h", "90s"])}')`,
    () => "self >= duration('0s')",
    () => "self <= oldSelf + duration('1h')",
    () => "string(self).endsWith('s')",
  ],
};

/** A messageExpression per node that reads the value. */
const MESSAGES: Record<Node, string> = {
  spec: "has(self.n) ? 'spec with n' : 'spec without n'",
  n: "self > 5 ? 'n is large' : 'n is small'",
  s: "'s is ' + self",
  tags: "'tags are ' + self.join(',')",
  tag: "'tag ' + self",
  ports: "self.size() > 1 ? 'several ports' : 'one port'",
  port: "'port ' + self.name",
  labels: "'labels' + (has(self.team) ? ' with team' : '')",
  label: "'label ' + self",
  ratio: "'ratio ' + (self > 1.0 ? 'high' : 'low')",
  ios: "'ios is ' + (type(self) == string ? 'a string' : 'an int')",
  v: "'v is ' + self",
  d: "self > duration('1h') ? 'd is long' : 'd is short'",
};

const REASONS = ["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"];
const SPEC_PATHS = [".n", ".s", ".tags", ".labels"];

/** One random rule for a node, with a random message style. */
export function randomRule(r: Random, node: Node): Rule {
  const rule: Rule = { rule: r.pick(TEMPLATES[node])(r) };
  const style = r.int(0, 5);
  if (style === 1) rule.message = `rule ${node} broken`;
  if (style === 2) rule.messageExpression = MESSAGES[node];
  if (style === 3) rule.reason = r.pick(REASONS);
  if (style === 4 && node === "spec") rule.fieldPath = r.pick(SPEC_PATHS);
  if (style === 5 && node === "spec") {
    rule.messageExpression = "has(self.n) ? 'n is ' + string(self.n) : ''";
    rule.message = "static fallback";
  }
  if (rule.rule.includes("oldSelf") && !rule.rule.includes("has(oldSelf") && r.chance(0.3)) {
    rule.optionalOldSelf = true;
    rule.rule = rule.rule.replaceAll("oldSelf", "oldSelf.orValue(self)");
  }
  return rule;
}

/** CRDs the apiserver must refuse (or, for the last ones, accept): rules placed on one node each. */
export const BROKEN_RULES: { node: Node; rule: Rule }[] = [
  { node: "spec", rule: { rule: "self.nope > 1" } },
  { node: "spec", rule: { rule: "self.n + 1" } },
  { node: "spec", rule: { rule: "self.n > 'a'" } },
  { node: "spec", rule: { rule: "unknownVar == 1" } },
  { node: "spec", rule: { rule: "self.n > 1", messageExpression: "self.n" } },
  { node: "spec", rule: { rule: "self.n > 1", reason: "FieldValueUnknown" } },
  { node: "spec", rule: { rule: "" } },
  { node: "spec", rule: { rule: "self.n > 1", fieldPath: ".nope" } },
  // Over the cost budget on a real apiserver: a map value selected by name has no size bound there,
  // and string() of a number has none either.
  {
    node: "spec",
    rule: {
      rule: "!has(self.labels) || !('team' in self.labels) || self.labels.team.lowerAscii() == self.labels.team",
    },
  },
  { node: "spec", rule: { rule: "true", messageExpression: "'n: ' + string(self.n)" } },
  // Transition rules where old items do not pair with new ones, and optionalOldSelf without oldSelf.
  { node: "tag", rule: { rule: "self == oldSelf" } },
  { node: "n", rule: { rule: "self > 0", optionalOldSelf: true } },
  // Accepted: object equality, and a transition rule on items of a map-list.
  { node: "port", rule: { rule: "self == oldSelf" } },
];
