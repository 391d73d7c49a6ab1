/** Spec cases of batch/v1: Jobs and CronJobs. */
import { podSpecVariants } from "./pod-bodies.js";
import { type Body, pick, type Random, type SpecGroup, word } from "./types.js";

const containers = [{ name: "c", image: "busybox" }];
const jobSpec = (extra: Body = {}): Body => ({
  template: { spec: { restartPolicy: "Never", containers } },
  ...extra,
});
const exitRule = (extra: Body = {}): Body => ({
  action: "FailJob",
  onExitCodes: { operator: "In", values: [1, 2] },
  ...extra,
});

function jobSpecVariants(rnd: Random): [string, Body][] {
  const n = 1 + Math.floor(rnd() * 5);
  return [
    ["valid-plain", jobSpec()],
    ["valid-onfailure", jobSpec({ template: { spec: { restartPolicy: "OnFailure", containers } } })],
    ["valid-indexed", jobSpec({ completionMode: "Indexed", completions: n, parallelism: n })],
    ["valid-parallelism-only", jobSpec({ parallelism: n })],
    [
      "valid-failure-policy",
      jobSpec({
        podFailurePolicy: {
          rules: [
            exitRule(),
            { action: "Ignore", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] },
          ],
        },
      }),
    ],
    [
      "valid-per-index",
      jobSpec({ completionMode: "Indexed", completions: 3, backoffLimitPerIndex: 1, maxFailedIndexes: 1 }),
    ],
    ["restart-always", jobSpec({ template: { spec: { restartPolicy: "Always", containers } } })],
    ["restart-missing", { template: { spec: { containers } } }],
    ["restart-unknown", jobSpec({ template: { spec: { restartPolicy: "Sometimes", containers } } })],
    ["template-missing", {}],
    ["parallelism-negative", jobSpec({ parallelism: -n })],
    ["completions-negative", jobSpec({ completions: -1 })],
    ["backoff-negative", jobSpec({ backoffLimit: -1 })],
    ["deadline-negative", jobSpec({ activeDeadlineSeconds: -1 })],
    ["ttl-negative", jobSpec({ ttlSecondsAfterFinished: -1 })],
    ["completion-mode-unknown", jobSpec({ completionMode: pick(rnd, ["Ordered", "indexed"]) })],
    ["indexed-no-completions", jobSpec({ completionMode: "Indexed", parallelism: 2, completions: null })],
    ["per-index-nonindexed", jobSpec({ backoffLimitPerIndex: 1 })],
    [
      "max-failed-without-per-index",
      jobSpec({ completionMode: "Indexed", completions: 3, maxFailedIndexes: 1 }),
    ],
    [
      "max-failed-over-completions",
      jobSpec({ completionMode: "Indexed", completions: 2, backoffLimitPerIndex: 1, maxFailedIndexes: 5 }),
    ],
    ["replacement-policy-unknown", jobSpec({ podReplacementPolicy: "Never" })],
    [
      "replacement-with-failure-policy",
      jobSpec({ podReplacementPolicy: "TerminatingOrFailed", podFailurePolicy: { rules: [exitRule()] } }),
    ],
    [
      "failure-policy-onfailure",
      jobSpec({
        template: { spec: { restartPolicy: "OnFailure", containers } },
        podFailurePolicy: { rules: [exitRule()] },
      }),
    ],
    ["failure-policy-no-action", jobSpec({ podFailurePolicy: { rules: [exitRule({ action: undefined })] } })],
    [
      "failure-policy-action-unknown",
      jobSpec({ podFailurePolicy: { rules: [exitRule({ action: "Retry" })] } }),
    ],
    [
      "failure-policy-fail-index",
      jobSpec({ podFailurePolicy: { rules: [exitRule({ action: "FailIndex" })] } }),
    ],
    ["failure-policy-no-requirement", jobSpec({ podFailurePolicy: { rules: [{ action: "Ignore" }] } })],
    [
      "failure-policy-both",
      jobSpec({
        podFailurePolicy: { rules: [exitRule({ onPodConditions: [{ type: "X", status: "True" }] })] },
      }),
    ],
    [
      "failure-policy-exit-zero-in",
      jobSpec({
        podFailurePolicy: { rules: [exitRule({ onExitCodes: { operator: "In", values: [0, 1] } })] },
      }),
    ],
    [
      "failure-policy-exit-unordered",
      jobSpec({
        podFailurePolicy: { rules: [exitRule({ onExitCodes: { operator: "NotIn", values: [3, 1, 1] } })] },
      }),
    ],
    [
      "failure-policy-exit-empty",
      jobSpec({ podFailurePolicy: { rules: [exitRule({ onExitCodes: { operator: "In", values: [] } })] } }),
    ],
    [
      "failure-policy-exit-operator",
      jobSpec({ podFailurePolicy: { rules: [exitRule({ onExitCodes: { operator: "Is", values: [1] } })] } }),
    ],
    [
      "failure-policy-container-unknown",
      jobSpec({
        podFailurePolicy: {
          rules: [exitRule({ onExitCodes: { operator: "In", values: [1], containerName: word(rnd) } })],
        },
      }),
    ],
    [
      "failure-policy-condition-status",
      jobSpec({
        podFailurePolicy: {
          rules: [{ action: "Ignore", onPodConditions: [{ type: "a/b/c", status: "Maybe" }] }],
        },
      }),
    ],
    ["success-policy-nonindexed", jobSpec({ successPolicy: { rules: [{ succeededCount: 1 }] } })],
    ["selector-manual-missing", jobSpec({ manualSelector: true })],
    ["selector-manual-mismatch", jobSpec({ manualSelector: true, selector: { matchLabels: { a: "b" } } })],
    [
      "selector-manual-match",
      jobSpec({
        manualSelector: true,
        selector: { matchLabels: { a: "b" } },
        template: { metadata: { labels: { a: "b" } }, spec: { restartPolicy: "Never", containers } },
      }),
    ],
    ["selector-not-generated", jobSpec({ selector: { matchLabels: { a: "b" } } })],
    [
      "template-label-job-name",
      jobSpec({
        template: {
          metadata: { labels: { "job-name": word(rnd) } },
          spec: { restartPolicy: "Never", containers },
        },
      }),
    ],
  ];
}

function jobVariants(rnd: Random): [string, Body][] {
  const pods = podSpecVariants(rnd).filter(() => rnd() < 0.25);
  return [
    ...jobSpecVariants(rnd).map(([v, spec]): [string, Body] => [v, { spec }]),
    ...pods.map(([v, pod]): [string, Body] => [
      `template-${v}`,
      { spec: jobSpec({ template: { spec: { restartPolicy: "Never", ...pod } } }) },
    ]),
  ];
}

const cron = (extra: Body = {}, job: Body = jobSpec()): Body => ({
  spec: { schedule: "*/5 * * * *", jobTemplate: { spec: job }, ...extra },
});

function cronJobVariants(rnd: Random): [string, Body][] {
  const minute = Math.floor(rnd() * 60);
  return [
    ["valid-plain", cron()],
    ["valid-names", cron({ schedule: `${minute} 3 * jan-mar mon,fri` })],
    ["valid-descriptor", cron({ schedule: pick(rnd, ["@daily", "@hourly", "@weekly", "@every 1h30m"]) })],
    ["valid-timezone", cron({ timeZone: pick(rnd, ["Europe/Berlin", "America/New_York", "UTC"]) })],
    ["valid-question", cron({ schedule: "0 0 ? * *" })],
    ["schedule-missing", cron({ schedule: undefined })],
    ["schedule-four-fields", cron({ schedule: "* * * *" })],
    ["schedule-six-fields", cron({ schedule: "0 * * * * *" })],
    ["schedule-word", cron({ schedule: word(rnd) })],
    ["schedule-minute-over", cron({ schedule: `${60 + minute} * * * *` })],
    ["schedule-range-over", cron({ schedule: "0-70 * * * *" })],
    ["schedule-range-reversed", cron({ schedule: "30-10 * * * *" })],
    ["schedule-day-zero", cron({ schedule: "0 0 0 * *" })],
    ["schedule-step-zero", cron({ schedule: "*/0 * * * *" })],
    ["schedule-hyphens", cron({ schedule: "1-2-3 * * * *" })],
    ["schedule-slashes", cron({ schedule: "1/2/3 * * * *" })],
    ["schedule-negative", cron({ schedule: "* -1 * * *" })],
    ["schedule-month-name", cron({ schedule: "* * * foo *" })],
    ["schedule-descriptor-unknown", cron({ schedule: "@fortnightly" })],
    ["schedule-every-bad", cron({ schedule: "@every 5 minutes" })],
    ["schedule-tz", cron({ schedule: "TZ=UTC 0 * * * *" })],
    ["schedule-tz-bad", cron({ schedule: "CRON_TZ=Mars/Base 0 * * * *" })],
    ["timezone-empty", cron({ timeZone: "" })],
    ["timezone-unknown", cron({ timeZone: "Mars/Olympus" })],
    ["timezone-local", cron({ timeZone: "Local" })],
    ["timezone-dots", cron({ timeZone: "../etc" })],
    ["concurrency-unknown", cron({ concurrencyPolicy: "Sometimes" })],
    ["deadline-negative", cron({ startingDeadlineSeconds: -1 })],
    ["history-negative", cron({ successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -2 })],
    ["job-selector-set", cron({}, jobSpec({ selector: { matchLabels: { a: "b" } } }))],
    ["job-manual-selector", cron({}, jobSpec({ manualSelector: true }))],
    [
      "job-restart-always",
      cron({}, jobSpec({ template: { spec: { restartPolicy: "Always", containers } } })),
    ],
    ["job-template-missing", cron({}, {})],
    ["job-parallelism-negative", cron({}, jobSpec({ parallelism: -1 }))],
    [
      "job-container-name-invalid",
      cron(
        {},
        jobSpec({ template: { spec: { restartPolicy: "Never", containers: [{ name: "C", image: "i" }] } } }),
      ),
    ],
  ];
}

export const batch: SpecGroup = {
  name: "batch",
  kinds: [
    { id: "batch/jobs", variants: jobVariants },
    { id: "batch/cronjobs", variants: cronJobVariants },
  ],
};
