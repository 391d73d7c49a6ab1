/**
 * Table rows for the spec validation suites (validation-<group>.test.ts): an object sent with
 * dryRun=All and what kube-apiserver 1.37 answers for it: 201, or 422 Invalid with exactly these
 * causes, each written `field | reason | message`.
 */
import { expect } from "vitest";
import type { TestTarget } from "../support/target.js";

export interface SpecRow {
  readonly name: string;
  /** The collection URL (namespaced kinds in `default`). */
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** The causes of the 422; empty when the object is accepted. */
  readonly causes: readonly string[];
}

const cause = (c: { field?: string; reason?: string; message?: string }) =>
  `${c.field ?? ""} | ${c.reason ?? ""} | ${c.message ?? ""}`;

/** Sends the row's object and checks the answer. */
export async function checkRow(t: TestTarget, row: SpecRow): Promise<void> {
  const sep = row.path.includes("?") ? "&" : "?";
  const res = await t.call("POST", `${row.path}${sep}dryRun=All`, { body: row.body });
  if (row.causes.length === 0) {
    expect(res.json?.message, row.name).toBeUndefined();
    expect(res.status, row.name).toBe(201);
    return;
  }
  expect(res.status, row.name).toBe(422);
  expect(res.json.reason).toBe("Invalid");
  expect((res.json.details?.causes ?? []).map(cause).sort()).toEqual([...row.causes].sort());
}

/** Creates `body` at `path`, then PUTs `update(created)` and returns the answer. */
export async function createThenPut(
  t: TestTarget,
  path: string,
  body: Record<string, unknown>,
  update: (created: Record<string, unknown>) => Record<string, unknown>,
): Promise<{ status: number; causes: string[]; message: string | undefined }> {
  const created = await t.call("POST", path, { body });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const name = created.json.metadata.name as string;
  const res = await t.call("PUT", `${path}/${name}`, { body: update(created.json) });
  await t.call("DELETE", `${path}/${name}`);
  return {
    status: res.status,
    causes: (res.json.details?.causes ?? []).map(cause),
    message: res.json.message,
  };
}

export const DNS_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
export const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
