/**
 * A CRD's conversion between its versions (`spec.conversion.strategy`): None rewrites `apiVersion`
 * only; Webhook sends the objects not yet in the desired version, all in one ConversionReview (a list
 * is one call), and checks the answer as upstream does. A failed conversion is a ConversionError worded
 * `conversion webhook for <group/version, Kind=kind> …` (the handlers make it a Status).
 */
import { randomUUID } from "node:crypto";
import { ConversionError, type CustomConversion } from "../resources/served.js";
import {
  ConversionFailed,
  checkConverted,
  convertedObjects,
  type Obj,
  type ReviewVersion,
  reviewRequest,
  reviewVersionOf,
} from "./conversion-review.js";
import { postJson, type ServiceResolver, WebhookCallFailed, webhookTarget } from "./conversion-webhook.js";
import { specOf } from "./crd-view.js";
import { isObject } from "./json-schema.js";

const withApiVersion = (o: Obj, apiVersion: string): Obj =>
  o.apiVersion === apiVersion ? o : { ...o, apiVersion };

export const NONE_CONVERSION: CustomConversion = {
  byWebhook: false,
  convert: (objects, apiVersion) => objects.map((o) => withApiVersion(o, apiVersion)),
};

/** `timeoutMs`: how long a webhook call may take (the server's conversionWebhookTimeoutMs). */
export function conversionOf(crd: unknown, resolve: ServiceResolver, timeoutMs?: number): CustomConversion {
  const conversion = specOf(crd).conversion;
  if (!isObject(conversion) || conversion.strategy !== "Webhook") return NONE_CONVERSION;
  const webhook = isObject(conversion.webhook) ? conversion.webhook : {};
  return {
    byWebhook: true,
    convert(objects, apiVersion) {
      const pending = objects.filter((o) => o.apiVersion !== apiVersion);
      if (pending.length === 0) return [...objects];
      const first = pending[0] as Obj;
      const gvk = `${groupVersionText(String(first.apiVersion ?? ""))}, Kind=${String(first.kind ?? "")}`;
      const version = reviewVersionOf(webhook.conversionReviewVersions);
      const call = { clientConfig: webhook.clientConfig, resolve, version, timeoutMs };
      return callWebhook(call, pending, apiVersion).then(
        (converted) => {
          let next = 0;
          return objects.map((o) => (o.apiVersion === apiVersion ? o : (converted[next++] as Obj)));
        },
        (e: unknown) => {
          if (e instanceof ConversionFailed)
            throw new ConversionError(`conversion webhook for ${gvk} ${e.message}`, first);
          if (e instanceof WebhookCallFailed)
            throw new ConversionError(`conversion webhook for ${gvk} failed: ${e.message}`, first);
          throw e;
        },
      );
    },
  };
}

/** Go's GroupVersion text of an apiVersion (the core group has none). */
function groupVersionText(apiVersion: string): string {
  return apiVersion.includes("/") ? apiVersion : `/${apiVersion}`;
}

interface WebhookCall {
  readonly clientConfig: unknown;
  readonly resolve: ServiceResolver;
  readonly version: ReviewVersion;
  readonly timeoutMs: number | undefined;
}

async function callWebhook(call: WebhookCall, pending: Obj[], apiVersion: string): Promise<Obj[]> {
  const target = webhookTarget(call.clientConfig, call.resolve, call.timeoutMs);
  if (typeof target === "string") throw new WebhookCallFailed(target);
  const uid = randomUUID();
  const answer = await postJson(target, reviewRequest(call.version, uid, apiVersion, pending));
  const converted = convertedObjects(call.version, uid, answer);
  const single = pending.length === 1;
  if (converted.length !== pending.length)
    throw new ConversionFailed(`returned ${converted.length} objects, expected ${pending.length}`);
  return pending.map((original, index) =>
    checkConverted(original, converted[index], apiVersion, { single, index }),
  );
}
