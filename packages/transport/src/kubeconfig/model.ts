// The kubeconfig after parsing: one entry per named cluster/user/context, with empty strings and
// nulls normalised to absent and relative file paths made absolute against the declaring file.

/** Where an entry was declared: used to name `clusters[2]` etc. in errors after merging. */
export interface EntryOrigin {
  readonly file: string;
  readonly index: number;
}

/** A named cluster: how to reach and trust one API server. */
export interface ClusterEntry {
  readonly name: string;
  readonly origin: EntryOrigin;
  readonly server?: string;
  readonly tlsServerName?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly certificateAuthority?: string;
  /** Base64 as written in the file. */
  readonly certificateAuthorityData?: string;
  readonly proxyUrl?: string;
  readonly disableCompression: boolean;
  /** The `client.authentication.k8s.io/exec` extension, passed to exec plugins as `spec.cluster.config`. */
  readonly execExtension?: unknown;
}

/** An exec credential plugin as configured. */
export interface ExecEntry {
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly apiVersion?: string;
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  readonly interactiveMode?: string;
}

/** A named user: the credentials to present. Holds secrets; never log it. */
export interface UserEntry {
  readonly name: string;
  readonly origin: EntryOrigin;
  readonly clientCertificate?: string;
  readonly clientCertificateData?: string;
  readonly clientKey?: string;
  readonly clientKeyData?: string;
  readonly token?: string;
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly impersonate?: string;
  readonly impersonateUid?: string;
  readonly impersonateGroups: readonly string[];
  readonly impersonateExtra: Readonly<Record<string, readonly string[]>>;
  readonly authProvider?: string;
  readonly exec?: ExecEntry;
}

/** A named context: a cluster, a user and a default namespace. */
export interface ContextEntry {
  readonly name: string;
  readonly origin: EntryOrigin;
  readonly cluster?: string;
  readonly user?: string;
  readonly namespace?: string;
}

/** One parsed kubeconfig file. */
export interface KubeconfigDocument {
  readonly file: string;
  readonly clusters: readonly ClusterEntry[];
  readonly users: readonly UserEntry[];
  readonly contexts: readonly ContextEntry[];
  readonly currentContext?: string;
}

/** Field path of a key inside a cluster/user/context entry, e.g. `users[0].user.exec.apiVersion`. */
export function entryFieldPath(
  list: "clusters" | "users" | "contexts",
  origin: EntryOrigin,
  key: string,
): string {
  const inner = list === "clusters" ? "cluster" : list === "users" ? "user" : "context";
  return `${list}[${origin.index}].${inner}.${key}`;
}
