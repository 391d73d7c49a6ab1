/**
 * `POST serviceaccounts/<name>/token` (a TokenRequest): issues a bearer token for the
 * ServiceAccount's user (`system:serviceaccount:<ns>:<name>`, with the account's uid and a credential
 * id) that the server then accepts. The body is read like any object body (JSON, YAML or protobuf:
 * client-go sends protobuf). Issued tokens do not expire here; the answer names the expiry asked for
 * and the audiences (kube-apiserver's own by default). A `boundObjectRef` binds the token to a pod,
 * secret or node (token-binding.ts): how the kubelet fills a pod's kube-api-access volume.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "../api/status.js";
import { type AuthSettings, authorize, type UserInfo } from "../http/auth.js";
import { readObject } from "../http/request-body.js";
import type { HandlerContext } from "./handlers/context.js";
import { matchingPath } from "./route-extension.js";
import { boundTokenExtra } from "./token-binding.js";

const TOKEN = /^\/api\/v1\/namespaces\/([^/]+)\/serviceaccounts\/([^/]+)\/token$/;
const BODY_LIMIT = 1024 * 1024;
const DEFAULT_EXPIRATION_SECONDS = 3600;
/** kube-apiserver's default API audience (its --api-audiences, from the issuer). */
const DEFAULT_AUDIENCES = ["https://kubernetes.default.svc.cluster.local"];

type Json = Record<string, unknown>;

export function serviceAccountTokenRoute(
  ctx: HandlerContext,
  auth: AuthSettings,
  tokens: Map<string, UserInfo>,
) {
  return matchingPath(
    TOKEN,
    async (req: IncomingMessage, res: ServerResponse, _url: URL, user: UserInfo, m): Promise<boolean> => {
      if (req.method !== "POST") return false;
      const namespace = decodeURIComponent(m[1] as string);
      const name = decodeURIComponent(m[2] as string);
      const access = { verb: "create", group: "", resource: "serviceaccounts", subresource: "token" };
      authorize(user, auth, { ...access, namespace, name });
      const accounts = ctx.resources.find("", "v1", "serviceaccounts");
      const account = accounts ? ctx.store.get(accounts.bucket, `${namespace}/${name}`) : undefined;
      if (!account) throw errors.notFound({ group: "", resource: "serviceaccounts" }, name);
      const { body: request } = await readObject(req, BODY_LIMIT, "TokenRequest");
      const spec = (request.spec ?? {}) as {
        expirationSeconds?: number;
        audiences?: string[];
        boundObjectRef?: unknown;
      };
      const expirationSeconds = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
      const audiences = spec.audiences?.length ? spec.audiences : DEFAULT_AUDIENCES;
      const bound = boundTokenExtra(ctx, namespace, spec.boundObjectRef);
      const token = randomBytes(32).toString("base64url");
      tokens.set(token, {
        name: `system:serviceaccount:${namespace}:${name}`,
        groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`, "system:authenticated"],
        uid: String(account.metadata.uid),
        extra: { "authentication.kubernetes.io/credential-id": [`JTI=${randomUUID()}`], ...bound },
      });
      const expires = new Date(ctx.now() + expirationSeconds * 1000);
      const answer: Json = {
        ...request,
        kind: "TokenRequest",
        apiVersion: "authentication.k8s.io/v1",
        metadata: { ...(request.metadata as Json | undefined), name, namespace },
        spec: { ...spec, audiences, expirationSeconds },
        status: { token, expirationTimestamp: expires.toISOString().replace(/\.\d+Z$/, "Z") },
      };
      res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
      return true;
    },
  );
}
