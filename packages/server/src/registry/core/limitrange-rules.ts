/**
 * ValidateLimitRange: limit types (standard or qualified, each once), resource names per type, no
 * defaults for Pod limits, a storage bound for claim limits, and the order min ≤ defaultRequest ≤
 * default ≤ max with ratios of at least 1 and at most max/min.
 */
import {
  duplicate,
  type FieldError,
  forbidden,
  invalid,
  isObject,
  listAt,
  objectAt,
  required,
  stringAt,
} from "../../validation/field-errors.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";
import { type Quantity, quantityValue } from "../../validation/quantity-value.js";
import {
  containerResourceNameErrors,
  overcommitAllowed,
  resourceNameErrors,
} from "../../validation/resources.js";

type Json = Record<string, unknown>;
type Amounts = Map<string, { text: string; q: Quantity }>;

const STANDARD_TYPES = new Set(["Pod", "Container", "PersistentVolumeClaim"]);

function typeErrors(type: string, field: string): FieldError[] {
  const problems = qualifiedNameProblems(type);
  if (problems.length > 0) return problems.map((m) => invalid(field, type, m));
  if (!type.includes("/") && !STANDARD_TYPES.has(type))
    return [invalid(field, type, "must be a standard limit type or fully qualified")];
  return [];
}

function amounts(limit: Json, key: string, type: string, at: string, out: FieldError[]): Amounts {
  const map: Amounts = new Map();
  const source = limit[key];
  if (!isObject(source)) return map;
  for (const [name, raw] of Object.entries(source)) {
    const field = `${at}.${key}[${name}]`;
    out.push(
      ...(type === "Pod" || type === "Container"
        ? containerResourceNameErrors(name, field)
        : resourceNameErrors(name, field)),
    );
    const text = String(raw);
    const q = quantityValue(text);
    if (q) map.set(name, { text, q });
  }
  return map;
}

function orderErrors(k: string, m: Record<string, Amounts>, at: string): FieldError[] {
  const out: FieldError[] = [];
  const [min, max, def, req, ratio] = [m.min, m.max, m.default, m.defaultRequest, m.maxLimitRequestRatio].map(
    (x) => x?.get(k),
  );
  const gt = (a: typeof min, b: typeof min) => a !== undefined && b !== undefined && a.q.compare(b.q) > 0;
  if (gt(min, max))
    out.push(
      invalid(`${at}.min[${k}]`, min?.text, `min value ${min?.text} is greater than max value ${max?.text}`),
    );
  if (gt(min, req))
    out.push(
      invalid(
        `${at}.defaultRequest[${k}]`,
        req?.text,
        `min value ${min?.text} is greater than default request value ${req?.text}`,
      ),
    );
  if (gt(req, max))
    out.push(
      invalid(
        `${at}.defaultRequest[${k}]`,
        req?.text,
        `default request value ${req?.text} is greater than max value ${max?.text}`,
      ),
    );
  if (gt(req, def))
    out.push(
      invalid(
        `${at}.defaultRequest[${k}]`,
        req?.text,
        `default request value ${req?.text} is greater than default limit value ${def?.text}`,
      ),
    );
  if (gt(min, def))
    out.push(
      invalid(
        `${at}.default[${k}]`,
        min?.text,
        `min value ${min?.text} is greater than default value ${def?.text}`,
      ),
    );
  if (gt(def, max))
    out.push(
      invalid(
        `${at}.default[${k}]`,
        max?.text,
        `default value ${def?.text} is greater than max value ${max?.text}`,
      ),
    );
  if (ratio && ratio.q.num < ratio.q.den)
    out.push(invalid(`${at}.maxLimitRequestRatio[${k}]`, ratio.text, `ratio ${ratio.text} is less than 1`));
  if (ratio && min && max && min.q.num !== 0n) {
    const limit = Number(max.q.num * min.q.den) / Number(min.q.num * max.q.den);
    if (Number(ratio.q.num) / Number(ratio.q.den) > limit)
      out.push(
        invalid(
          `${at}.maxLimitRequestRatio[${k}]`,
          ratio.text,
          `ratio ${ratio.text} is greater than max/min = ${limit.toFixed(6)}`,
        ),
      );
  }
  if (!overcommitAllowed(k) && def && req && def.q.compare(req.q) !== 0)
    out.push(
      invalid(
        `${at}.defaultRequest[${k}]`,
        req.text,
        `default value ${def.text} must equal to defaultRequest value ${req.text} in ${k}`,
      ),
    );
  return out;
}

function limitErrors(limit: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const type = stringAt(limit.type);
  const m: Record<string, Amounts> = {};
  m.max = amounts(limit, "max", type, at, out);
  m.min = amounts(limit, "min", type, at, out);
  if (type === "Pod") {
    if (isObject(limit.default) && Object.keys(limit.default).length > 0)
      out.push(forbidden(`${at}.default`, "may not be specified when `type` is 'Pod'"));
    if (isObject(limit.defaultRequest) && Object.keys(limit.defaultRequest).length > 0)
      out.push(forbidden(`${at}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
  } else {
    m.default = amounts(limit, "default", type, at, out);
    m.defaultRequest = amounts(limit, "defaultRequest", type, at, out);
  }
  if (type === "PersistentVolumeClaim" && !m.min.has("storage") && !m.max.has("storage"))
    out.push(
      required(
        `${at}.limits`,
        "either minimum or maximum storage value is required, but neither was provided",
      ),
    );
  m.maxLimitRequestRatio = amounts(limit, "maxLimitRequestRatio", type, at, out);
  const keys = new Set(Object.values(m).flatMap((x) => [...x.keys()]));
  for (const k of keys) out.push(...orderErrors(k, m, at));
  return out;
}

export function limitRangeErrors(spec: Json): FieldError[] {
  const out: FieldError[] = [];
  const types = new Set<string>();
  listAt(spec.limits).forEach((raw, i) => {
    const limit = objectAt(raw);
    const at = `spec.limits[${i}]`;
    const type = stringAt(limit.type);
    out.push(...typeErrors(type, `${at}.type`));
    if (types.has(type)) out.push(duplicate(`${at}.type`, type));
    types.add(type);
    out.push(...limitErrors(limit, at));
  });
  return out;
}
