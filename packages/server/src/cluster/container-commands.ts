/**
 * What a pod's containers would do if a runtime ran them, read from the few container forms whose
 * outcome is plain from the spec: a shell running `exit N` or `sleep N`, `sleep N` itself, and the
 * pause image (which runs until killed). Upstream's e2e tests and most examples use exactly these
 * to make a pod finish, fail or keep running; anything else says nothing, and the stage rules and
 * defaults decide.
 */
import type { coreV1 } from "@kubesdk/models";

/** The part of a pod's behaviour (behaviour.ts) its commands tell. */
interface CommandBehaviour {
  readonly runMs?: number | undefined;
  readonly exitCode?: number;
}

const SHELLS = new Set(["sh", "/bin/sh", "bash", "/bin/bash", "ash", "/bin/ash"]);
const SLEEPS = new Set(["sleep", "/bin/sleep"]);

/** A container's own behaviour: `{ runMs: undefined }` (present, undefined) means "until killed". */
function containerBehaviour(c: coreV1.Container): CommandBehaviour | undefined {
  const argv = [...(c.command ?? []), ...(c.args ?? [])];
  if (argv.length === 0) return isPauseImage(c.image) ? { runMs: undefined } : undefined;
  const [first, second, script] = argv;
  if (argv.length === 3 && SHELLS.has(first as string) && second === "-c")
    return scriptBehaviour(script as string);
  if (argv.length === 2 && SLEEPS.has(first as string)) return sleepBehaviour(second as string);
  return undefined;
}

function scriptBehaviour(script: string): CommandBehaviour | undefined {
  const exit = /^\s*exit\s+(\d{1,3})\s*;?\s*$/.exec(script);
  if (exit) return { runMs: 0, exitCode: Number(exit[1]) % 256 };
  const sleep = /^\s*sleep\s+(\S+)\s*;?\s*$/.exec(script);
  return sleep ? sleepBehaviour(sleep[1] as string) : undefined;
}

function sleepBehaviour(seconds: string): CommandBehaviour | undefined {
  if (!/^\d+$/.test(seconds)) return undefined;
  return { runMs: Number(seconds) * 1000, exitCode: 0 };
}

/** `registry.k8s.io/pause:3.10`, `k8s.gcr.io/pause`, … */
function isPauseImage(image: string | undefined): boolean {
  const name = (image ?? "").split("@")[0]?.replace(/:[^/:]*$/, "") ?? "";
  return name === "pause" || name.endsWith("/pause");
}

/**
 * The pod's behaviour from its containers when every container's is known: it runs until the last
 * container exits (until killed if one never does), with the first non-zero exit code.
 */
export function commandBehaviour(pod: coreV1.Pod): CommandBehaviour {
  const each = (pod.spec?.containers ?? []).map(containerBehaviour);
  if (each.length === 0 || each.some((b) => b === undefined)) return {};
  const known = each as CommandBehaviour[];
  if (known.some((b) => b.runMs === undefined)) return { runMs: undefined };
  const runMs = Math.max(...known.map((b) => b.runMs as number));
  const exitCode = known.find((b) => (b.exitCode ?? 0) !== 0)?.exitCode ?? 0;
  return { runMs, exitCode };
}
