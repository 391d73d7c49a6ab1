/**
 * Job and CronJob /status writes are validated as kube-apiserver 1.37 validates them
 * (ValidateJobUpdateStatus with the status options the Job strategy turns on by default): counters,
 * uncounted pods, terminal conditions and their times, indexes; the transition rules compare with
 * the stored status.
 */
import { describeStatusRows, NEGATIVE, type StatusRow } from "./status-validation-cases.js";

const neg = (field: string) => `status.${field} | FieldValueInvalid | ${NEGATIVE}`;
const cond = (type: string) => ({ type, status: "True" });
const T1 = "2024-01-01T00:00:00Z";
const T2 = "2024-02-01T00:00:00Z";
const CONDITIONS = "status.conditions | FieldValueInvalid | Invalid value";
const INDEXED = { completionMode: "Indexed", completions: 3, parallelism: 3 };
const COMPLETE = {
  startTime: T1,
  completionTime: T2,
  conditions: [cond("SuccessCriteriaMet"), cond("Complete")],
};
const FAILED = { startTime: T1, conditions: [cond("FailureTarget"), cond("Failed")] };

const ROWS: StatusRow[] = [
  {
    name: "negative counters",
    kind: "job",
    status: { active: -1, ready: -1, terminating: -1 },
    causes: [neg("active"), neg("ready"), neg("terminating")],
  },
  {
    name: "more ready pods than active ones",
    kind: "job",
    status: { active: 1, ready: 2 },
    causes: ["status.ready | FieldValueInvalid | Invalid value: 2: cannot set more ready pods than active"],
  },
  {
    name: "uncounted pods: an empty uid and one counted twice",
    kind: "job",
    status: { uncountedTerminatedPods: { succeeded: ["", "a"], failed: ["a"] } },
    causes: [
      'status.uncountedTerminatedPods.succeeded[0] | FieldValueInvalid | Invalid value: "": must not be empty',
      'status.uncountedTerminatedPods.failed[0] | FieldValueDuplicate | Duplicate value: "a"',
    ],
  },
  {
    name: "Complete without its times and criteria",
    kind: "job",
    status: { conditions: [cond("Complete")] },
    causes: [
      "status.completionTime | FieldValueRequired | Required value: completionTime is required for Complete jobs",
      "status.startTime | FieldValueRequired | Required value: startTime is required for finished job",
      `${CONDITIONS}: cannot set Complete=True condition without the SuccessCriteriaMet=true condition`,
    ],
  },
  {
    name: "a completion time without Complete, before the start",
    kind: "job",
    status: { startTime: T2, completionTime: T1 },
    causes: [
      'status.completionTime | FieldValueInvalid | Invalid value: "2024-01-01T00:00:00Z": cannot set completionTime when there is no Complete=True condition',
      'status.completionTime | FieldValueInvalid | Invalid value: "2024-01-01T00:00:00Z": must be equal to or after `startTime`',
    ],
  },
  {
    name: "completed indexes of a job that is not indexed",
    kind: "job",
    status: { completedIndexes: "0" },
    causes: [
      'status.completedIndexes | FieldValueInvalid | Invalid value: "0": cannot set non-empty completedIndexes when non-indexed completion mode',
    ],
  },
  {
    name: "failed indexes without a backoff limit per index",
    kind: "job",
    spec: INDEXED,
    status: { failedIndexes: "1" },
    causes: [
      'status.failedIndexes | FieldValueInvalid | Invalid value: "1": cannot set non-null failedIndexes when backoffLimitPerIndex is null',
    ],
  },
  {
    name: "completed indexes out of range",
    kind: "job",
    spec: INDEXED,
    status: { completedIndexes: "0,5" },
    causes: [
      'status.completedIndexes | FieldValueInvalid | Invalid value: "0,5": error parsing completedIndexes: too large index: "5"',
    ],
  },
  {
    name: "counters that go down",
    kind: "job",
    before: { succeeded: 2, failed: 2 },
    status: { succeeded: 1, failed: 1 },
    causes: [
      "status.failed | FieldValueInvalid | Invalid value: 1: cannot decrease the failed counter",
      "status.succeeded | FieldValueInvalid | Invalid value: 1: cannot decrease the succeeded counter",
    ],
  },
  {
    name: "terminal conditions taken back",
    kind: "job",
    before: FAILED,
    status: { conditions: [] },
    causes: [
      `${CONDITIONS}: cannot disable the terminal Failed=True condition`,
      `${CONDITIONS}: cannot disable the terminal FailureTarget=True condition`,
    ],
  },
  {
    name: "a finished job with active pods",
    kind: "job",
    status: { ...FAILED, active: 1 },
    causes: ["status.active | FieldValueInvalid | Invalid value: 1: active>0 is invalid for finished job"],
  },
  {
    name: "a start time changed while running",
    kind: "job",
    before: { startTime: T1 },
    status: { startTime: T2 },
    causes: [
      'status.startTime | FieldValueInvalid | Invalid value: "2024-02-01T00:00:00Z": field is immutable for unsuspended job once set',
    ],
  },
  {
    name: "a failed job without a failure target",
    kind: "job",
    status: { startTime: T1, conditions: [cond("Failed")] },
    causes: [`${CONDITIONS}: cannot set Failed=True condition without the FailureTarget=true condition`],
  },
  {
    name: "a finished job with terminating pods and uncounted ones",
    kind: "job",
    status: { ...FAILED, terminating: 1, uncountedTerminatedPods: { failed: ["a"] } },
    causes: [
      "status.terminating | FieldValueInvalid | Invalid value: 1: terminating>0 is invalid for finished job",
      'status.uncountedTerminatedPods | FieldValueInvalid | Invalid value: {"Succeeded":null,"Failed":["a"]}: must be empty for finished job',
    ],
  },
  {
    name: "succeeded and failed at once",
    kind: "job",
    status: { ...COMPLETE, conditions: [...COMPLETE.conditions, cond("FailureTarget"), cond("Failed")] },
    causes: [
      `${CONDITIONS}: cannot set Complete=True and Failed=true conditions`,
      `${CONDITIONS}: cannot set Complete=True and FailureTarget=true conditions`,
      `${CONDITIONS}: cannot set SuccessCriteriaMet=True and Failed=true conditions`,
      `${CONDITIONS}: cannot set SuccessCriteriaMet=True and FailureTarget=true conditions`,
    ],
  },
  {
    name: "a completion time that changes",
    kind: "job",
    before: COMPLETE,
    status: { completionTime: "2024-03-01T00:00:00Z" },
    causes: [
      'status.completionTime | FieldValueInvalid | Invalid value: "2024-03-01T00:00:00Z": field is immutable',
    ],
  },
  {
    name: "a complete job",
    kind: "job",
    status: COMPLETE,
    causes: [],
  },
  {
    name: "a failed job",
    kind: "job",
    status: FAILED,
    causes: [],
  },
  {
    name: "CronJob: any status",
    kind: "cronjob",
    status: { active: [{ kind: "Job", name: "j" }], lastScheduleTime: T1 },
    causes: [],
  },
];

describeStatusRows("Job status validation (dryRun=All /status writes)", ROWS);
