/** What a simulated cluster is made of and how fast it moves (`startServer({ cluster })`). */
import type { PodStage } from "./behaviour.js";
import type { SimulatedNodeConfig } from "./node-agent.js";

export interface ClusterOptions {
  /** The simulated nodes (default: one, `node-1`); `[]` for none (real kubelets only). */
  readonly nodes?: readonly SimulatedNodeConfig[];
  /** Stage rules after the default one (Job pods complete), in order; later ones win. */
  readonly stages?: readonly PodStage[];
  /** How often nodes renew their Lease (default 10 s, as a kubelet). */
  readonly heartbeatMs?: number;
  /** How long a node may miss heartbeats before it counts as lost (default 40 s, as upstream). */
  readonly nodeMonitorGraceMs?: number;
  /** First restart back-off of a container or a Job's pod, doubling per restart (default 100 ms). */
  readonly restartBackoffMs?: number;
  /** Longest back-off (default 10 s). */
  readonly maxRestartBackoffMs?: number;
}
