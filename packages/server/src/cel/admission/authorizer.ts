/**
 * The `authorizer` variable of admission expressions: upstream's authz library shape —
 * `authorizer.group(g).resource(r).subresource(s).namespace(n).name(x).check(verb)`,
 * `authorizer.path(p).check(verb)`, `authorizer.serviceAccount(ns, name)`,
 * `authorizer.requestResource.check(verb)`, and the decision's `allowed()`, `reason()`,
 * `errored()`, `error()`. The reference server's authorizer has no RBAC: a request's user
 * is allowed everything unless the server marks it restricted (an impersonated stranger, who may
 * do nothing), and a service account named here is treated as restricted too.
 */
import type { Environment } from "@marcbachmann/cel-js";

const A = "kubernetes.authorization.Authorizer";
const PATH = "kubernetes.authorization.PathCheck";
const GROUP = "kubernetes.authorization.GroupCheck";
const RESOURCE = "kubernetes.authorization.ResourceCheck";
const DECISION = "kubernetes.authorization.Decision";

/** Who asks, as far as the server's authorizer cares. */
export class AuthorizerValue {
  constructor(
    readonly allowed: boolean,
    readonly requestResource?: ResourceCheck,
  ) {}
}

export class PathCheck {
  constructor(readonly allowed: boolean) {}
}

export class GroupCheck {
  constructor(readonly allowed: boolean) {}
}

export class ResourceCheck {
  constructor(readonly allowed: boolean) {}
}

export class Decision {
  constructor(readonly allowed: boolean) {}
}

const decide = (c: { allowed: boolean }) => new Decision(c.allowed);

export function registerAuthorizer(env: Environment): void {
  env.registerType(DECISION, Decision);
  env.registerType(RESOURCE, ResourceCheck);
  env.registerType(GROUP, GroupCheck);
  env.registerType(PATH, PathCheck);
  env.registerType(A, { ctor: AuthorizerValue, fields: { requestResource: RESOURCE } });
  env.registerFunction(`${A}.path(string): ${PATH}`, (a: AuthorizerValue) => new PathCheck(a.allowed));
  env.registerFunction(`${A}.group(string): ${GROUP}`, (a: AuthorizerValue) => new GroupCheck(a.allowed));
  env.registerFunction(`${A}.serviceAccount(string, string): ${A}`, () => new AuthorizerValue(false));
  env.registerFunction(
    `${GROUP}.resource(string): ${RESOURCE}`,
    (g: GroupCheck) => new ResourceCheck(g.allowed),
  );
  for (const narrowing of ["subresource", "namespace", "name"])
    env.registerFunction(`${RESOURCE}.${narrowing}(string): ${RESOURCE}`, (r: ResourceCheck) => r);
  env.registerFunction(`${RESOURCE}.check(string): ${DECISION}`, decide);
  env.registerFunction(`${PATH}.check(string): ${DECISION}`, decide);
  env.registerFunction(`${DECISION}.allowed(): bool`, (d: Decision) => d.allowed);
  env.registerFunction(`${DECISION}.reason(): string`, () => "");
  env.registerFunction(`${DECISION}.errored(): bool`, () => false);
  env.registerFunction(`${DECISION}.error(): string`, () => "");
}

/** The authorizer value for a requester (`allowed`: whether the server lets it do anything). */
export function authorizerFor(allowed: boolean): AuthorizerValue {
  return new AuthorizerValue(allowed, new ResourceCheck(allowed));
}
