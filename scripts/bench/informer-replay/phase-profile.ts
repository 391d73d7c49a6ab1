/**
 * CPU profiles of one phase of a contender (the sync or the watch), for `--cpu-prof-phase`: the
 * parent sets KUBESDK_BENCH_PROFILE to "<phase>:<directory>" for the profiled contender, which then
 * starts V8's sampling profiler through the inspector before that phase and writes the profile after.
 * A whole-process profile (`--cpu-prof`) mixes the watch with the sync, which takes as long.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";

export type Phase = "sync" | "watch";

const setting = process.env.KUBESDK_BENCH_PROFILE;
const [wanted, dir] =
  setting === undefined
    ? []
    : [setting.slice(0, setting.indexOf(":")), setting.slice(setting.indexOf(":") + 1)];
let session: Session | undefined;

/** Starts profiling if `phase` is the one asked for. */
export async function startPhase(phase: Phase): Promise<void> {
  if (phase !== wanted) return;
  session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
}

/** Writes the profile of `phase`, if it was being profiled; the path, or undefined. */
export async function stopPhase(phase: Phase, contender: string): Promise<string | undefined> {
  if (phase !== wanted || session === undefined || dir === undefined) return undefined;
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  session = undefined;
  const file = join(dir, `${contender}.${phase}.${process.pid}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}
