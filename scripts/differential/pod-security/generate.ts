/**
 * Seeded pods for the PodSecurity differential: each field the Pod Security Standards look at is
 * left out most of the time and otherwise drawn from values each level allows and refuses
 * (securityContext at pod and container level, capabilities, host namespaces and ports, probe
 * hosts, volumes, sysctls, seccomp, AppArmor, SELinux, procMount, user namespaces, Windows).
 * Some draws are invalid pods on purpose: both servers must then agree on the 422.
 */
import type { Random } from "../cel/random.js";

type Json = Record<string, unknown>;

const CAPS = ["NET_ADMIN", "SYS_ADMIN", "NET_BIND_SERVICE", "CHOWN", "NET_RAW", "KILL", "ALL", "SYS_TIME"];
const SECCOMP = [
  { type: "RuntimeDefault" },
  { type: "Unconfined" },
  { type: "Localhost", localhostProfile: "profiles/audit.json" },
];
const APPARMOR = [
  { type: "RuntimeDefault" },
  { type: "Unconfined" },
  { type: "Localhost", localhostProfile: "k8s-default" },
];
const SELINUX_TYPES = [
  "container_t",
  "container_init_t",
  "container_kvm_t",
  "container_engine_t",
  "spc_t",
  "",
];
const SYSCTLS = [
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.ip_unprivileged_port_start",
  "net.ipv4.ip_local_reserved_ports",
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_rmem",
  "kernel.msgmax",
  "net.core.somaxconn",
  "kernel.shmmax",
];
const SYSCTL_VALUES: Record<string, string> = {
  "net.ipv4.ip_local_port_range": "1024 65000",
  "net.ipv4.tcp_rmem": "4096 87380 6291456",
  "net.ipv4.ip_local_reserved_ports": "8080",
};

const maybe = <T>(r: Random, p: number, f: () => T): T | undefined => (r.chance(p) ? f() : undefined);
/** Drops the keys whose value is undefined, so an absent draw leaves the field out. */
const clean = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function securityContext(r: Random): Json | undefined {
  if (r.chance(0.15)) return undefined;
  const sc = clean({
    privileged: maybe(r, 0.12, () => r.chance(0.6)),
    allowPrivilegeEscalation: maybe(r, 0.6, () => r.chance(0.25)),
    runAsNonRoot: maybe(r, 0.4, () => r.chance(0.75)),
    runAsUser: maybe(r, 0.25, () => r.pick([0, 1000])),
    capabilities: maybe(r, 0.6, () =>
      clean({
        drop: maybe(r, 0.8, () => (r.chance(0.8) ? ["ALL"] : r.some(CAPS, 2))),
        add: maybe(r, 0.35, () => r.some(CAPS, 2)),
      }),
    ),
    seccompProfile: maybe(r, 0.3, () => r.pick(SECCOMP)),
    appArmorProfile: maybe(r, 0.12, () => r.pick(APPARMOR)),
    seLinuxOptions: maybe(r, 0.12, () =>
      clean({
        type: r.pick(SELINUX_TYPES),
        user: maybe(r, 0.25, () => "system_u"),
        role: maybe(r, 0.25, () => "system_r"),
        level: maybe(r, 0.3, () => "s0:c123,c456"),
      }),
    ),
    procMount: maybe(r, 0.1, () => r.pick(["Default", "Unmasked"])),
    windowsOptions: maybe(r, 0.04, () => ({ hostProcess: r.chance(0.5) })),
  });
  return sc;
}

function probe(r: Random): Json {
  return r.chance(0.5)
    ? {
        httpGet: clean({
          port: 8080,
          path: "/healthz",
          host: maybe(r, 0.5, () => r.pick(["10.0.0.1", "example.com"])),
        }),
      }
    : { tcpSocket: clean({ port: 8080, host: maybe(r, 0.5, () => "10.0.0.2") }) };
}

function container(r: Random, name: string, init: boolean): Json {
  return clean({
    name,
    image: "busybox",
    securityContext: securityContext(r),
    ports: maybe(r, 0.2, () => [
      clean({ containerPort: 8080, hostPort: maybe(r, 0.6, () => r.pick([8080, 80, 9090])) }),
    ]),
    livenessProbe: init ? undefined : maybe(r, 0.12, () => probe(r)),
    readinessProbe: init ? undefined : maybe(r, 0.06, () => probe(r)),
    lifecycle: init
      ? undefined
      : maybe(r, 0.06, () => ({ preStop: { httpGet: { port: 80, host: "10.0.0.3" } } })),
  });
}

const VOLUMES: ((name: string) => Json)[] = [
  (name) => ({ name, emptyDir: {} }),
  (name) => ({ name, configMap: { name: "cm" } }),
  (name) => ({ name, secret: { secretName: "s" } }),
  (name) => ({ name, hostPath: { path: "/var/log" } }),
  (name) => ({ name, nfs: { server: "nfs.example.com", path: "/exports" } }),
  (name) => ({ name, persistentVolumeClaim: { claimName: "claim" } }),
  (name) => ({ name, gitRepo: { repository: "https://example.com/r.git" } }),
  (name) => ({ name, csi: { driver: "csi.example.com" } }),
  (name) => ({ name, awsElasticBlockStore: { volumeID: "vol-1" } }),
  (name) => ({
    name,
    downwardAPI: { items: [{ path: "labels", fieldRef: { fieldPath: "metadata.labels" } }] },
  }),
];

function podSecurityContext(r: Random): Json | undefined {
  if (r.chance(0.3)) return undefined;
  return clean({
    runAsNonRoot: maybe(r, 0.4, () => r.chance(0.8)),
    runAsUser: maybe(r, 0.2, () => r.pick([0, 1000])),
    seccompProfile: maybe(r, 0.45, () => r.pick(SECCOMP)),
    appArmorProfile: maybe(r, 0.1, () => r.pick(APPARMOR)),
    seLinuxOptions: maybe(r, 0.1, () =>
      clean({ type: r.pick(SELINUX_TYPES), user: maybe(r, 0.3, () => "u") }),
    ),
    sysctls: maybe(r, 0.2, () =>
      r.some(SYSCTLS, 2).map((name) => ({ name, value: SYSCTL_VALUES[name] ?? "1" })),
    ),
    windowsOptions: maybe(r, 0.03, () => ({ hostProcess: true })),
  });
}

function annotations(r: Random, names: readonly string[]): Json | undefined {
  if (!r.chance(0.15)) return undefined;
  const name = r.pick(names);
  return r.chance(0.5)
    ? {
        [`container.apparmor.security.beta.kubernetes.io/${name}`]: r.pick([
          "unconfined",
          "runtime/default",
          "localhost/p",
        ]),
      }
    : r.chance(0.5)
      ? {
          "seccomp.security.alpha.kubernetes.io/pod": r.pick([
            "unconfined",
            "runtime/default",
            "localhost/p",
          ]),
        }
      : {
          [`container.seccomp.security.alpha.kubernetes.io/${name}`]: r.pick([
            "unconfined",
            "docker/default",
          ]),
        };
}

/** One pod spec and its metadata's annotations. */
export function randomPod(r: Random): { annotations?: Json; spec: Json } {
  const names = Array.from({ length: r.int(1, 3) }, (_, i) => `c${i}`);
  const init = r.chance(0.2) ? [container(r, "init0", true)] : undefined;
  const volumeCount = r.chance(0.4) ? r.int(1, 2) : 0;
  const volumes = Array.from({ length: volumeCount }, (_, i) => r.pick(VOLUMES)(`v${i}`));
  const spec = clean({
    initContainers: init,
    containers: names.map((n) => container(r, n, false)),
    volumes: volumes.length > 0 ? volumes : undefined,
    hostNetwork: maybe(r, 0.08, () => true),
    hostPID: maybe(r, 0.06, () => true),
    hostIPC: maybe(r, 0.06, () => true),
    hostUsers: maybe(r, 0.08, () => false),
    os: maybe(r, 0.05, () => ({ name: r.pick(["windows", "linux"]) })),
    securityContext: podSecurityContext(r),
  });
  return clean({ annotations: annotations(r, names), spec }) as { annotations?: Json; spec: Json };
}
