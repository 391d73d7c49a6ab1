import { VERSION } from "../version.js";

/** The default User-Agent: `kubesdk/<version> (node <version>; <os>/<arch>)`. */
export function defaultUserAgent(
  runtime: { node: string; platform: string; arch: string } = {
    node: process.versions.node,
    platform: process.platform,
    arch: process.arch,
  },
): string {
  return `kubesdk/${VERSION} (node ${runtime.node}; ${runtime.platform}/${runtime.arch})`;
}
