import { z } from "zod";

// The on-disk kubeconfig shape (clientcmd v1), validated for types only. Semantic rules that kubectl
// checks only for the selected context (e.g. exec apiVersion) are checked when resolving.
// Lists and optional fields may be null: `kubectl config view` writes `env: null`, `users: null`.

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isBase64(value: string): boolean {
  const compact = value.replace(/[\r\n]/g, "");
  return compact.length % 4 === 0 && BASE64.test(compact);
}

const optString = z.string().nullish();
const optBool = z.boolean().nullish();
const base64 = z.string().refine(isBase64, { message: "is not valid base64" }).nullish();
const extensions = z.array(z.object({ name: z.string(), extension: z.unknown() })).nullish();

const clusterSchema = z.object({
  server: optString,
  "tls-server-name": optString,
  "insecure-skip-tls-verify": optBool,
  "certificate-authority": optString,
  "certificate-authority-data": base64,
  "proxy-url": optString,
  "disable-compression": optBool,
  extensions,
});

const execSchema = z.object({
  command: optString,
  args: z.array(z.string()).nullish(),
  env: z.array(z.object({ name: z.string(), value: z.string() })).nullish(),
  apiVersion: optString,
  installHint: optString,
  provideClusterInfo: optBool,
  interactiveMode: optString,
});

const userSchema = z.object({
  "client-certificate": optString,
  "client-certificate-data": base64,
  "client-key": optString,
  "client-key-data": base64,
  token: optString,
  tokenFile: optString,
  as: optString,
  "as-uid": optString,
  "as-groups": z.array(z.string()).nullish(),
  "as-user-extra": z.record(z.string(), z.array(z.string())).nullish(),
  username: optString,
  password: optString,
  "auth-provider": z.object({ name: z.string() }).nullish(),
  exec: execSchema.nullish(),
  extensions,
});

const contextSchema = z.object({ cluster: optString, user: optString, namespace: optString, extensions });

function namedList<S extends z.ZodType<{ name: string }>>(item: S) {
  return z
    .array(item)
    .nullish()
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      for (const [i, item] of (items ?? []).entries()) {
        if (seen.has(item.name)) {
          ctx.addIssue({
            code: "custom",
            path: [i, "name"],
            message: `duplicate name ${JSON.stringify(item.name)}`,
          });
        }
        seen.add(item.name);
      }
    });
}

/** Schema of one kubeconfig file. */
export const kubeconfigFileSchema = z.object({
  apiVersion: z.literal("v1").nullish(),
  kind: z.literal("Config").nullish(),
  clusters: namedList(z.object({ name: z.string(), cluster: clusterSchema.nullish() })),
  users: namedList(z.object({ name: z.string(), user: userSchema.nullish() })),
  contexts: namedList(z.object({ name: z.string(), context: contextSchema.nullish() })),
  "current-context": optString,
  preferences: z.unknown().optional(),
  extensions,
});

/** One kubeconfig file as validated. */
export type KubeconfigFileShape = z.infer<typeof kubeconfigFileSchema>;
export type ClusterShape = z.infer<typeof clusterSchema>;
export type UserShape = z.infer<typeof userSchema>;
export type ContextShape = z.infer<typeof contextSchema>;
