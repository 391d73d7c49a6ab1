/**
 * Request interceptors and client request metrics against a running server (both targets): the
 * order of the hooks around each try, headers they add reaching the wire, retries seen try by try,
 * and rest_client_* metrics read back from the registry they were registered on.
 */
import { Kube } from "@kubesdk/client";
import { clientRequestMetrics, PrometheusMetrics } from "@kubesdk/controller";
import type {
  OutgoingRequest,
  RequestInterceptor,
  RequestOutcome,
  TransportOptions,
} from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { headerRecorder } from "./support.js";

let t: TestTarget;
let admin: Kube;
let ns: string;

beforeAll(async () => {
  // The reference server answers a resourceVersion from the future sooner than kube-apiserver's 3 s.
  t = await startTarget({ settings: { tooLargeResourceVersionWaitMs: 200 } });
  admin = await Kube.fromKubeconfig({ kubeconfig: { path: t.kubeconfigPath } });
  ns = uniqueName("observe");
  await admin.resource("v1", "Namespace").create({ metadata: { name: ns } });
});
afterAll(async () => {
  await admin.resource("v1", "Namespace").delete(ns);
  await admin.close();
  await t.close();
});

/** An interceptor that writes what it sees to `log` under its name. */
function logging(name: string, log: string[], outcomes: RequestOutcome[] = []): RequestInterceptor {
  return {
    onRequest: (r: OutgoingRequest) => {
      log.push(`${name} request ${r.method} attempt ${r.attempt}`);
    },
    onResponse: (o: RequestOutcome) => {
      log.push(`${name} response ${o.status ?? "none"}`);
      outcomes.push(o);
    },
  };
}

function clientWith(interceptors: RequestInterceptor[], extra: TransportOptions = {}) {
  return Kube.fromKubeconfig({
    kubeconfig: { path: t.kubeconfigPath },
    namespace: ns,
    transport: { interceptors, retries: { attempts: 2, minDelayMs: 1, maxDelayMs: 1 }, ...extra },
  });
}

/** The value of a metric's series whose labels include `labels` (0 when there is none). */
async function metricValue(
  registry: PrometheusMetrics["registry"],
  name: string,
  labels: Record<string, string>,
  field = "",
): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) throw new Error(`${name} is not registered`);
  const { values } = await metric.get();
  return values
    .filter(
      (v) =>
        // A histogram's series carry their own names (`_bucket`, `_sum`, `_count`).
        (field === "" || (v as { metricName?: string }).metricName === `${name}${field}`) &&
        Object.entries(labels).every(([k, x]) => v.labels[k] === x),
    )
    .reduce((sum, v) => sum + v.value, 0);
}

describe("request interceptors", () => {
  it("run request hooks in order and response hooks in reverse around each try; added headers reach the wire", async () => {
    const log: string[] = [];
    const outcomes: RequestOutcome[] = [];
    const recorder = headerRecorder();
    const stamp: RequestInterceptor = {
      onRequest: (r) => {
        r.headers["x-request-origin"] = "observability-test";
      },
    };
    const kube = await clientWith([logging("outer", log, outcomes), stamp, logging("inner", log)], {
      dispatcherFactory: recorder.factory,
    });
    try {
      await kube.resource("v1", "ConfigMap").create({ metadata: { name: "hooked" }, data: { a: "1" } });
      await kube.resource("v1", "ConfigMap").get("hooked");
    } finally {
      await kube.close();
    }
    expect(log).toEqual([
      "outer request POST attempt 1",
      "inner request POST attempt 1",
      "inner response 201",
      "outer response 201",
      "outer request GET attempt 1",
      "inner request GET attempt 1",
      "inner response 200",
      "outer response 200",
    ]);
    expect(outcomes.map((o) => [o.request.method, o.status, o.request.host])).toEqual([
      ["POST", 201, new URL(t.url).host],
      ["GET", 200, new URL(t.url).host],
    ]);
    for (const o of outcomes) expect(o.durationMs).toBeGreaterThanOrEqual(0);
    expect(outcomes[1]?.headers?.["content-type"]).toBe("application/json");
    expect(recorder.sent.map((h) => h["x-request-origin"])).toEqual([
      "observability-test",
      "observability-test",
    ]);
  });

  it("see a retried request try by try, and a hook's error ends the call after the hooks that ran see it end", async () => {
    const log: string[] = [];
    const kube = await clientWith([logging("only", log)]);
    const future = kube.resource("v1", "ConfigMap").list({ resourceVersion: "999999999" });
    await expect(future).rejects.toMatchObject({ statusCode: 504 });
    expect(log).toEqual([
      "only request GET attempt 1",
      "only response 504",
      "only request GET attempt 2",
      "only response 504",
    ]);

    const refused = new Error("refused by policy");
    const seen: string[] = [];
    const strict = await clientWith([
      logging("first", seen),
      {
        onRequest: () => {
          throw refused;
        },
      },
      logging("never", seen),
    ]);
    try {
      await expect(strict.resource("v1", "ConfigMap").list()).rejects.toBe(refused);
    } finally {
      await strict.close();
      await kube.close();
    }
    expect(seen).toEqual(["first request GET attempt 1", "first response none"]);
  });
});

describe("client request metrics", () => {
  it("count requests by code, retries, latency by verb and host, and nothing left in flight", async () => {
    const registry = new PrometheusMetrics().registry;
    const kube = await clientWith([clientRequestMetrics(registry)]);
    const host = new URL(t.url).host;
    try {
      await kube.resource("v1", "ConfigMap").create({ metadata: { name: "counted" } });
      await kube.resource("v1", "ConfigMap").get("counted");
      await expect(kube.resource("v1", "ConfigMap").get("absent")).rejects.toMatchObject({ statusCode: 404 });
      await expect(
        kube.resource("v1", "ConfigMap").list({ resourceVersion: "999999999" }),
      ).rejects.toMatchObject({
        statusCode: 504,
      });
    } finally {
      await kube.close();
    }
    const requests = (code: string, method: string) =>
      metricValue(registry, "rest_client_requests_total", { code, method, host });
    expect(await requests("201", "POST")).toBe(1);
    expect(await requests("200", "GET")).toBe(1);
    expect(await requests("404", "GET")).toBe(1);
    expect(await requests("504", "GET")).toBe(2);
    expect(await metricValue(registry, "rest_client_request_retries_total", { verb: "GET", host })).toBe(1);
    expect(await metricValue(registry, "rest_client_request_retries_total", { verb: "POST", host })).toBe(0);
    const latency = (verb: string) =>
      metricValue(registry, "rest_client_request_duration_seconds", { verb, host }, "_count");
    expect(await latency("GET")).toBe(4);
    expect(await latency("POST")).toBe(1);
    expect(await metricValue(registry, "rest_client_requests_in_flight", { host })).toBe(0);
  });
});
