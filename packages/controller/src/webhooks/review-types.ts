/**
 * The wire shapes an API server sends to webhooks and expects back: AdmissionReview
 * (admission.k8s.io/v1) and ConversionReview (apiextensions.k8s.io/v1). Only the fields the
 * runtime reads or writes are typed; everything else passes through untouched.
 */

import type { GroupVersionKind, GroupVersionResource } from "@kubesdk/models";

/** Who made the request, as the API server authenticated them. */
export interface UserInfo {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** `request` of an AdmissionReview as the API server sends it. */
export interface AdmissionReviewRequest {
  readonly uid: string;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subResource?: string;
  readonly requestKind?: GroupVersionKind;
  readonly requestResource?: GroupVersionResource;
  readonly requestSubResource?: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly operation: AdmissionOperation;
  readonly userInfo: UserInfo;
  readonly object?: unknown;
  readonly oldObject?: unknown;
  readonly dryRun?: boolean;
  readonly options?: unknown;
}

/** A Status as an admission response carries it (its code becomes the HTTP code the client sees). */
export interface ResponseStatus {
  readonly code: number;
  readonly message: string;
  readonly reason?: string;
}

export interface AdmissionReviewResponse {
  readonly uid: string;
  readonly allowed: boolean;
  readonly status?: ResponseStatus;
  /** Base64 of a JSON Patch (RFC 6902) document. */
  readonly patch?: string;
  readonly patchType?: "JSONPatch";
  readonly warnings?: readonly string[];
}

export interface AdmissionReview {
  readonly apiVersion: string;
  readonly kind: "AdmissionReview";
  readonly request?: AdmissionReviewRequest;
  readonly response?: AdmissionReviewResponse;
}

export interface ConversionReviewRequest {
  readonly uid: string;
  /** The version every object must be converted to, e.g. "example.com/v1". */
  readonly desiredAPIVersion: string;
  readonly objects: readonly unknown[];
}

export interface ConversionReviewResponse {
  readonly uid: string;
  readonly convertedObjects: readonly unknown[];
  readonly result: { readonly status: "Success" } | { readonly status: "Failure"; readonly message: string };
}

export interface ConversionReview {
  readonly apiVersion: string;
  readonly kind: "ConversionReview";
  readonly request?: ConversionReviewRequest;
  readonly response?: ConversionReviewResponse;
}

/** The admission.k8s.io and apiextensions.k8s.io versions the runtime answers (echoed back). */
export const ADMISSION_REVIEW_VERSIONS = ["admission.k8s.io/v1", "admission.k8s.io/v1beta1"] as const;
export const CONVERSION_REVIEW_VERSIONS = [
  "apiextensions.k8s.io/v1",
  "apiextensions.k8s.io/v1beta1",
] as const;
