/**
 * The seeded PRNG (mulberry32) of the reference server's fault schedules, so that a failing random
 * schedule in a test replays from its seed exactly as the server's own faults do.
 */
export { seededRandom as prng } from "../../packages/server/src/faults/prng.js";
