/**
 * The webhooks one server answers, by path, and the dispatch of one request body to its handler:
 * parsing, shape checks, the handler under its deadline, and the review answered in the version it
 * was asked in. No HTTP here (webhook-server.ts does that), so dispatch is testable on its own.
 */
import type { CustomResourceDefinitionOf } from "@kubesdk/client";
import { ControllerError } from "../errors.js";
import {
  answerMutating,
  answerValidating,
  type MutatingHandler,
  type ValidatingHandler,
} from "./admission.js";
import { answerConversion, type ConverterEntry } from "./conversion.js";
import {
  ADMISSION_REVIEW_VERSIONS,
  type AdmissionReview,
  CONVERSION_REVIEW_VERSIONS,
  type ConversionReview,
} from "./review-types.js";
import { defaultPath, type KindTarget, resolveTarget, type WebhookTarget, webhookName } from "./targets.js";

/** How a webhook is registered with the API server (used by the configuration helpers). */
export interface AdmissionWebhookOptions {
  /** URL path (default: controller-runtime's `/validate-…` or `/mutate-…`). */
  readonly path?: string;
  /** The webhook's name in its configuration (default: `v<kind>.<group>`, or from the path if given). */
  readonly name?: string;
  /** The definition's version the handler sees (default: the storage version). */
  readonly version?: string;
  /** Default CREATE and UPDATE. */
  readonly operations?: readonly ("CREATE" | "UPDATE" | "DELETE" | "CONNECT" | "*")[];
  /** Default "Fail": the write is refused when the webhook cannot be reached. */
  readonly failurePolicy?: "Fail" | "Ignore";
  /** The API server's timeout for this webhook, 1 to 30 (default 10). */
  readonly timeoutSeconds?: number;
  /** Default "None"; set "NoneOnDryRun" if the handler has side effects it skips on dry runs. */
  readonly sideEffects?: "None" | "NoneOnDryRun";
  readonly namespaceSelector?: unknown;
  readonly objectSelector?: unknown;
  /** Sub-resources to match too, e.g. ["status"]. */
  readonly subresources?: readonly string[];
}

export interface AdmissionRegistration {
  readonly type: "validating" | "mutating";
  readonly path: string;
  readonly name: string;
  readonly target: KindTarget;
  readonly options: AdmissionWebhookOptions;
  // biome-ignore lint/suspicious/noExplicitAny: handlers of every kind share the table.
  readonly handler: ValidatingHandler<any> | MutatingHandler<any>;
}

/** One answer: an HTTP status and a JSON body (or a plain-text error for malformed requests). */
export interface DispatchResult {
  readonly status: number;
  readonly body: string;
  readonly contentType: string;
}

export const CONVERSION_PATH = "/convert";

const plain = (status: number, text: string): DispatchResult => ({
  status,
  body: `${text}\n`,
  contentType: "text/plain; charset=utf-8",
});
const json = (value: unknown): DispatchResult => ({
  status: 200,
  body: JSON.stringify(value),
  contentType: "application/json",
});

export class WebhookRegistry {
  readonly #admission = new Map<string, AdmissionRegistration>();
  readonly #converters = new Map<string, ConverterEntry>();
  readonly #conversionDefinitions: CustomResourceDefinitionOf[] = [];

  addAdmission(
    type: "validating" | "mutating",
    target: WebhookTarget,
    handler: AdmissionRegistration["handler"],
    options: AdmissionWebhookOptions = {},
  ): AdmissionRegistration {
    const kind = resolveTarget(target, options.version);
    const path = options.path ?? defaultPath(type === "validating" ? "validate" : "mutate", kind);
    if (!path.startsWith("/") || path === CONVERSION_PATH || this.#admission.has(path))
      throw new ControllerError("INVALID_DECLARATION", `webhook path ${path} is taken or invalid`);
    const name =
      options.name ?? webhookName(type === "validating" ? "validate" : "mutate", kind, options.path);
    const registration = { type, path, name, target: kind, options, handler };
    this.#admission.set(path, registration);
    return registration;
  }

  addConverter(definition: CustomResourceDefinitionOf, entry: ConverterEntry): void {
    const key = `${entry.kind}.${entry.group}`;
    if (this.#converters.has(key))
      throw new ControllerError("INVALID_DECLARATION", `a converter for ${key} is already registered`);
    this.#converters.set(key, entry);
    this.#conversionDefinitions.push(definition);
  }

  get admission(): readonly AdmissionRegistration[] {
    return [...this.#admission.values()];
  }

  get conversions(): readonly CustomResourceDefinitionOf[] {
    return this.#conversionDefinitions;
  }

  has(path: string): boolean {
    return this.#admission.has(path) || (path === CONVERSION_PATH && this.#converters.size > 0);
  }

  /** Answers one POST body sent to `path`, the handler given `deadlineMs`. */
  async dispatch(path: string, text: string, deadlineMs: number): Promise<DispatchResult> {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return plain(400, "request body is not JSON");
    }
    if (path === CONVERSION_PATH && this.#converters.size > 0) return this.#convert(body, deadlineMs);
    const registration = this.#admission.get(path);
    if (registration === undefined) return plain(404, `no webhook at ${path}`);
    const review = body as AdmissionReview;
    if (
      review?.kind !== "AdmissionReview" ||
      !(ADMISSION_REVIEW_VERSIONS as readonly string[]).includes(review.apiVersion) ||
      typeof review.request?.uid !== "string"
    )
      return plain(400, "expected an AdmissionReview (admission.k8s.io/v1) with request.uid");
    const answer =
      registration.type === "validating"
        ? await answerValidating(review.request, registration.handler as ValidatingHandler, deadlineMs)
        : await answerMutating(review.request, registration.handler as MutatingHandler, deadlineMs);
    return json({
      apiVersion: review.apiVersion,
      kind: "AdmissionReview",
      response: { uid: review.request.uid, ...answer },
    });
  }

  async #convert(body: unknown, deadlineMs: number): Promise<DispatchResult> {
    const review = body as ConversionReview;
    const request = review?.request;
    if (
      review?.kind !== "ConversionReview" ||
      !(CONVERSION_REVIEW_VERSIONS as readonly string[]).includes(review.apiVersion) ||
      typeof request?.uid !== "string" ||
      typeof request.desiredAPIVersion !== "string" ||
      !Array.isArray(request.objects)
    )
      return plain(400, "expected a ConversionReview (apiextensions.k8s.io/v1) with request.uid and objects");
    const response = await answerConversion(request, this.#converters, deadlineMs);
    return json({ apiVersion: review.apiVersion, kind: "ConversionReview", response });
  }
}
