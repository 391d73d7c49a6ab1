import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** What a fake exec plugin prints. */
export interface FakePluginBehaviour {
  readonly apiVersion: string;
  /** Tokens are `<tokenPrefix>-<run number>`, starting at 1. */
  readonly tokenPrefix?: string;
  readonly expirationTimestamp?: string;
  readonly clientCertificateData?: string;
  readonly clientKeyData?: string;
  /** Printed instead of an ExecCredential. */
  readonly rawOutput?: string;
  readonly exitCode?: number;
}

/** A fake plugin script in `dir`: counts its runs and records KUBERNETES_EXEC_INFO and argv. */
export interface FakePlugin {
  readonly command: string;
  runs(): number;
  lastExecInfo(): unknown;
  lastArgs(): string[];
  lastEnv(name: string): string | undefined;
}

/** Writes an executable node script (spawned directly, no shell) that behaves as configured. */
export function writeFakePlugin(dir: string, name: string, behaviour: FakePluginBehaviour): FakePlugin {
  const command = path.join(dir, name);
  const state = path.join(dir, `${name}.state.json`);
  const script = `#!${process.execPath}
const fs = require("node:fs");
const statePath = ${JSON.stringify(state)};
const behaviour = ${JSON.stringify(behaviour)};
let state = { runs: 0 };
try { state = JSON.parse(fs.readFileSync(statePath, "utf8")); } catch {}
state.runs += 1;
state.execInfo = process.env.KUBERNETES_EXEC_INFO ? JSON.parse(process.env.KUBERNETES_EXEC_INFO) : null;
state.args = process.argv.slice(2);
state.env = { PLUGIN_ENV: process.env.PLUGIN_ENV };
fs.writeFileSync(statePath, JSON.stringify(state));
if (behaviour.rawOutput !== undefined) process.stdout.write(behaviour.rawOutput);
else {
  const status = {};
  if (behaviour.tokenPrefix) status.token = behaviour.tokenPrefix + "-" + state.runs;
  if (behaviour.expirationTimestamp) status.expirationTimestamp = behaviour.expirationTimestamp;
  if (behaviour.clientCertificateData) status.clientCertificateData = behaviour.clientCertificateData;
  if (behaviour.clientKeyData) status.clientKeyData = behaviour.clientKeyData;
  process.stdout.write(JSON.stringify({ apiVersion: behaviour.apiVersion, kind: "ExecCredential", status }));
}
process.exitCode = behaviour.exitCode ?? 0;
`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(command, script);
  chmodSync(command, 0o755);
  const read = (): { runs: number; execInfo?: unknown; args?: string[]; env?: Record<string, string> } => {
    try {
      return JSON.parse(readFileSync(state, "utf8"));
    } catch {
      return { runs: 0 };
    }
  };
  return {
    command,
    runs: () => read().runs,
    lastExecInfo: () => read().execInfo,
    lastArgs: () => read().args ?? [],
    lastEnv: (n) => read().env?.[n],
  };
}
