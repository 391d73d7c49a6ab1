/**
 * Issue 31: batch/v1 specs validated as kube-apiserver 1.37 validates them (reason Invalid, the same
 * causes): Jobs (restart policy, counters, completion mode, pod failure policy, selectors) and
 * CronJobs (schedule as robfig/cron parses it, time zone, concurrency policy, job template). The
 * seeded, broader comparison is `pnpm diff:server` (scripts/differential/specs/batch.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalidAnswer, invalidWith } from "../support/invalid-status.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
const ns = uniqueName("val-batch");
const jobs = () => `/apis/batch/v1/namespaces/${ns}/jobs`;
const cronjobs = () => `/apis/batch/v1/namespaces/${ns}/cronjobs`;

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
});
afterAll(async () => {
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

const containers = [{ name: "c", image: "busybox" }];
const jobSpec = (extra: Record<string, unknown> = {}, restartPolicy = "Never") => ({
  template: { spec: { restartPolicy, containers } },
  ...extra,
});
const createJob = (spec: unknown) =>
  t.call("POST", jobs(), { body: { metadata: { name: uniqueName("j") }, spec } });
const createCron = (spec: Record<string, unknown>) =>
  t.call("POST", cronjobs(), {
    body: {
      metadata: { name: uniqueName("cj") },
      spec: { schedule: "*/5 * * * *", jobTemplate: { spec: jobSpec() }, ...spec },
    },
  });

describe("Jobs", () => {
  it("needs pods that restart OnFailure or Never", async () => {
    expect(invalidAnswer(await createJob(jobSpec({}, "Always")))).toEqual(
      invalidWith(
        'spec.template.spec.restartPolicy | FieldValueRequired | Required value: valid values: "OnFailure", "Never"',
      ),
    );
    expect(invalidAnswer(await createJob(jobSpec({}, "Sometimes")))).toEqual(
      invalidWith(
        'spec.template.spec.restartPolicy | FieldValueNotSupported | Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.template.spec.restartPolicy | FieldValueNotSupported | Unsupported value: "Sometimes": supported values: "OnFailure", "Never"',
      ),
    );
  });

  it("refuses negative counters", async () => {
    const res = await createJob(
      jobSpec({ parallelism: -1, completions: -2, backoffLimit: -3, ttlSecondsAfterFinished: -4 }),
    );
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.parallelism | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0",
        "spec.completions | FieldValueInvalid | Invalid value: -2: must be greater than or equal to 0",
        "spec.backoffLimit | FieldValueInvalid | Invalid value: -3: must be greater than or equal to 0",
        "spec.ttlSecondsAfterFinished | FieldValueInvalid | Invalid value: -4: must be greater than or equal to 0",
      ),
    );
  });

  it("checks the completion mode and what needs an indexed Job", async () => {
    expect(invalidAnswer(await createJob(jobSpec({ completionMode: "Ordered" })))).toEqual(
      invalidWith(
        'spec.completionMode | FieldValueNotSupported | Unsupported value: "Ordered": supported values: "NonIndexed", "Indexed"',
      ),
    );
    expect(invalidAnswer(await createJob(jobSpec({ completionMode: "Indexed", parallelism: 2 })))).toEqual(
      invalidWith("spec.completions | FieldValueRequired | Required value: when completion mode is Indexed"),
    );
    expect(invalidAnswer(await createJob(jobSpec({ backoffLimitPerIndex: 1 })))).toEqual(
      invalidWith(
        "spec.backoffLimitPerIndex | FieldValueInvalid | Invalid value: 1: requires indexed completion mode",
      ),
    );
  });

  it("checks pod failure policy rules", async () => {
    const res = await createJob(
      jobSpec({
        podFailurePolicy: {
          rules: [
            { action: "Retry", onExitCodes: { operator: "In", values: [0, 3, 1] } },
            { action: "Ignore" },
            { action: "FailJob", onExitCodes: { operator: "NotIn", values: [1], containerName: "nope" } },
          ],
        },
      }),
    );
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        'spec.podFailurePolicy.rules[0].action | FieldValueNotSupported | Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
        "spec.podFailurePolicy.rules[0].onExitCodes.values[0] | FieldValueInvalid | Invalid value: 0: must not be 0 for the In operator",
        "spec.podFailurePolicy.rules[0].onExitCodes.values | FieldValueInvalid | Invalid value: [0,3,1]: must be ordered",
        "spec.podFailurePolicy.rules[1] | FieldValueInvalid | Invalid value: specifying one of OnExitCodes and OnPodConditions is required",
        'spec.podFailurePolicy.rules[2].onExitCodes.containerName | FieldValueInvalid | Invalid value: "nope": must be one of the container or initContainer names in the pod template',
      ),
    );
  });

  it("a manual selector must be given and must select the template", async () => {
    expect(invalidAnswer(await createJob(jobSpec({ manualSelector: true })))).toEqual(
      invalidWith(
        "spec.selector | FieldValueRequired | Required value",
        "spec.template.metadata.labels | FieldValueInvalid | Invalid value: null: `selector` does not match template `labels`",
      ),
    );
    expect(
      invalidAnswer(
        await createJob(jobSpec({ manualSelector: true, selector: { matchLabels: { a: "b" } } })),
      ),
    ).toEqual(
      invalidWith(
        "spec.template.metadata.labels | FieldValueInvalid | Invalid value: null: `selector` does not match template `labels`",
      ),
    );
  });

  it("a selector without manualSelector is refused as not generated", async () => {
    const res = await createJob(jobSpec({ selector: { matchLabels: { a: "b" } } }));
    const answer = invalidAnswer(res);
    expect([answer.status, answer.causes.filter((c) => c.startsWith("spec.selector "))]).toEqual([
      422,
      [
        expect.stringMatching(
          /^spec\.selector \| FieldValueInvalid \| Invalid value: \{"matchLabels":\{.*`selector` not auto-generated$/,
        ),
      ],
    ]);
  });

  it("a Job's pod template may not change while it runs", async () => {
    const created = await createJob(jobSpec());
    expect(created.status).toBe(201);
    const next = structuredClone(created.json);
    next.spec.template.spec.containers[0].image = "other";
    const res = await t.call("PUT", `${jobs()}/${created.json.metadata.name}`, { body: next });
    const answer = invalidAnswer(res);
    expect([answer.status, answer.causes.length, answer.causes[0]]).toEqual([
      422,
      1,
      expect.stringMatching(/^spec\.template \| FieldValueInvalid \| Invalid value: .*: field is immutable$/),
    ]);
  });
});

describe("CronJobs", () => {
  it.each([
    ["four fields", "* * * *", "expected exactly 5 fields, found 4: [* * * *]"],
    ["a minute out of range", "61 * * * *", "end of range (61) above maximum (59): 61"],
    ["a reversed range", "30-10 * * * *", "beginning of range (30) beyond end of range (10): 30-10"],
    ["a day of month 0", "0 0 0 * *", "beginning of range (0) below minimum (1): 0"],
    ["a word", "often", "expected exactly 5 fields, found 1: [often]"],
    [
      "an unknown month",
      "* * * foo *",
      'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax',
    ],
    ["an unknown descriptor", "@fortnightly", "unrecognized descriptor: @fortnightly"],
    ["a step of zero", "*/0 * * * *", "step of range should be a positive number: */0"],
  ])("refuses a schedule with %s", async (_what, schedule, problem) => {
    expect(invalidAnswer(await createCron({ schedule }))).toEqual(
      invalidWith(
        `spec.schedule | FieldValueInvalid | Invalid value: ${JSON.stringify(schedule)}: ${problem}`,
      ),
    );
  });

  it("accepts names, descriptors and a time zone", async () => {
    for (const spec of [
      { schedule: "0 3 * jan-mar mon,fri" },
      { schedule: "@every 1h30m" },
      { schedule: "0 0 * * *", timeZone: "Europe/Berlin" },
    ])
      expect([spec, (await createCron(spec)).status]).toEqual([spec, 201]);
  });

  it("refuses TZ in the schedule, an unknown time zone and an unknown concurrency policy", async () => {
    expect(invalidAnswer(await createCron({ schedule: "TZ=UTC 0 * * * *" }))).toEqual(
      invalidWith(
        'spec.schedule | FieldValueInvalid | Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ),
    );
    expect(invalidAnswer(await createCron({ timeZone: "Mars/Olympus" }))).toEqual(
      invalidWith(
        'spec.timeZone | FieldValueInvalid | Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
      ),
    );
    expect(invalidAnswer(await createCron({ concurrencyPolicy: "Sometimes" }))).toEqual(
      invalidWith(
        'spec.concurrencyPolicy | FieldValueNotSupported | Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      ),
    );
  });

  it("validates the job template and refuses a selector there", async () => {
    const res = await createCron({
      jobTemplate: { spec: jobSpec({ selector: { matchLabels: { a: "b" } }, parallelism: -1 }, "Always") },
    });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.jobTemplate.spec.parallelism | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0",
        'spec.jobTemplate.spec.template.spec.restartPolicy | FieldValueRequired | Required value: valid values: "OnFailure", "Never"',
        'spec.jobTemplate.spec.selector | FieldValueInvalid | Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
      ),
    );
  });
});
