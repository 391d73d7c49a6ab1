/**
 * The stand-in kubelet's outcome rule for the conformance run: a container whose command is
 * `sh -c "exit N"` (upstream's e2e Job fixtures "succeed" and "fail") exits with N when its pod does
 * not restart containers, and so does busybox without a command (its `sh` reads no input: exit 0);
 * every other container (pause, sleep) keeps running. The simulated kubelet
 * replaces the stand-in, and this rule with it.
 */
import type { PodOutcome } from "../components/fake-kubelet.js";

interface PodShape {
  readonly spec: {
    readonly restartPolicy?: string;
    readonly containers: readonly {
      readonly image?: string;
      readonly command?: string[];
      readonly args?: string[];
    }[];
  };
}

const EXIT = /^(?:\/bin\/)?sh -c exit (\d+)$/;

export function commandOutcome(pod: PodShape): PodOutcome {
  const [first] = pod.spec.containers;
  if (!first || pod.spec.restartPolicy === "Always") return { running: true };
  const command = [...(first.command ?? []), ...(first.args ?? [])].join(" ").trim();
  if (command === "" && /(^|\/)busybox(:|$)/.test(first.image ?? "")) return { exitCode: 0 };
  const m = EXIT.exec(command);
  return m ? { exitCode: Number(m[1]) } : { running: true };
}
