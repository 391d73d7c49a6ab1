/**
 * The generator parses .proto files with the protobufjs that @kubesdk/models ships with, so the
 * descriptors are written by the same version that loads them at run time (the workspace root
 * does not depend on protobufjs itself).
 */
import { createRequire } from "node:module";
import type * as Protobuf from "../../packages/models/node_modules/protobufjs/index.js";

const requireFromModels = createRequire(new URL("../../packages/models/package.json", import.meta.url));

export const protobuf = requireFromModels("protobufjs") as typeof Protobuf;
export type { Protobuf };
