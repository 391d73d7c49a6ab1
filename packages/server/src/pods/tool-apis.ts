/**
 * APIs kube-apiserver answers itself that pod tools use: SelfSubjectReview (who the requester is),
 * SelfSubjectAccessReview and SelfSubjectRulesReview (answered by the reference authorizer:
 * authenticated users may do anything), and `serviceaccounts/token`, which issues a bearer token for the ServiceAccount's user
 * (`system:serviceaccount:<ns>:<name>`, with the account's uid and a credential id) that the server
 * then accepts. Issued tokens do not expire.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "../api/status.js";
import type { HandlerContext } from "../handlers/context.js";
import { ANONYMOUS, type AuthSettings, authorize, type UserInfo } from "../http/auth.js";
import { readBody } from "../http/body.js";

const AUTHZ = "/apis/authorization.k8s.io/v1/";
const SELF_REVIEW = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
const TOKEN = /^\/api\/v1\/namespaces\/([^/]+)\/serviceaccounts\/([^/]+)\/token$/;

type Json = Record<string, unknown>;

async function readJson(req: IncomingMessage): Promise<Json> {
  const raw = await readBody(req, 1024 * 1024);
  try {
    const value = raw.length > 0 ? JSON.parse(raw.toString("utf8")) : {};
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Json;
  } catch {
    // answered below
  }
  throw errors.badRequest("the body must be a JSON object");
}

function reply(res: ServerResponse, body: unknown): true {
  res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  return true;
}

function allowed(user: UserInfo, auth: AuthSettings, attributes: Json): boolean {
  try {
    authorize(user, auth, {
      verb: String(attributes.verb ?? ""),
      group: String(attributes.group ?? ""),
      resource: String(attributes.resource ?? ""),
      subresource: attributes.subresource as string | undefined,
      namespace: attributes.namespace as string | undefined,
      name: attributes.name as string | undefined,
    });
    return true;
  } catch {
    return false;
  }
}

/** SelfSubjectReview: the requester as the server authenticated it. */
function selfSubjectReview(user: UserInfo): Json {
  const userInfo: Json = { username: user.name };
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups.length > 0) userInfo.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
  return {
    kind: "SelfSubjectReview",
    apiVersion: "authentication.k8s.io/v1",
    metadata: { creationTimestamp: null },
    status: { userInfo },
  };
}

export function toolApiRoutes(ctx: HandlerContext, auth: AuthSettings, tokens: Map<string, UserInfo>) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL, user: UserInfo): Promise<boolean> => {
    const path = url.pathname;
    if (req.method !== "POST") return false;
    if (path === `${AUTHZ}selfsubjectaccessreviews`) {
      const review = await readJson(req);
      const attributes = ((review.spec as Json | undefined)?.resourceAttributes ?? {}) as Json;
      return reply(res, { ...review, status: { allowed: allowed(user, auth, attributes) } });
    }
    if (path === SELF_REVIEW) {
      await readJson(req);
      return reply(res, selfSubjectReview(user));
    }
    if (path === `${AUTHZ}selfsubjectrulesreviews`) {
      const review = await readJson(req);
      const full = user !== ANONYMOUS || auth.anonymous === "allowed";
      const resourceRules = full ? [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }] : [];
      const nonResourceRules = full ? [{ verbs: ["*"], nonResourceURLs: ["*"] }] : [];
      return reply(res, { ...review, status: { resourceRules, nonResourceRules, incomplete: false } });
    }
    const m = TOKEN.exec(path);
    if (!m) return false;
    const namespace = decodeURIComponent(m[1] as string);
    const name = decodeURIComponent(m[2] as string);
    authorize(user, auth, {
      verb: "create",
      group: "",
      resource: "serviceaccounts",
      subresource: "token",
      namespace,
      name,
    });
    const accounts = ctx.resources.find("", "v1", "serviceaccounts");
    const account = accounts ? ctx.store.get(accounts.bucket, `${namespace}/${name}`) : undefined;
    if (!account) throw errors.notFound({ group: "", resource: "serviceaccounts" }, name);
    const request = await readJson(req);
    const spec = (request.spec ?? {}) as { expirationSeconds?: number };
    const token = randomBytes(32).toString("base64url");
    tokens.set(token, {
      name: `system:serviceaccount:${namespace}:${name}`,
      groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`, "system:authenticated"],
      uid: String(account.metadata.uid),
      extra: { "authentication.kubernetes.io/credential-id": [`JTI=${randomUUID()}`] },
    });
    const expires = new Date(ctx.now() + (spec.expirationSeconds ?? 3600) * 1000);
    return reply(res, {
      kind: "TokenRequest",
      apiVersion: "authentication.k8s.io/v1",
      ...request,
      metadata: { ...(request.metadata as Json | undefined), name, namespace },
      spec: { ...spec, expirationSeconds: spec.expirationSeconds ?? 3600 },
      status: { token, expirationTimestamp: expires.toISOString().replace(/\.\d+Z$/, "Z") },
    });
  };
}
