import { decodeObject, decodeWatchEvent, encodeObject } from "@kubesdk/models";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

const PB = "application/vnd.kubernetes.protobuf";
let t: TestTarget;
let agent: Agent;
let ns: string;
const base = () => `/api/v1/namespaces/${ns}/configmaps`;

async function raw(
  method: string,
  path: string,
  opts: { accept?: string; body?: Uint8Array; contentType?: string } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${t.token}` };
  if (opts.accept) headers.accept = opts.accept;
  if (opts.contentType) headers["content-type"] = opts.contentType;
  const res = await request(t.url + path, {
    method: method as "GET",
    headers,
    body: opts.body,
    dispatcher: agent,
  });
  return {
    status: res.statusCode,
    type: String(res.headers["content-type"]),
    bytes: new Uint8Array(await res.body.arrayBuffer()),
  };
}

beforeAll(async () => {
  // Controllers off, like kube-apiserver in test:real: no kube-root-ca.crt joins the listed ConfigMaps.
  t = await startTarget({ controllers: false });
  agent = new Agent({ connect: t.ca ? { ca: t.ca } : {} });
  ns = uniqueName("pb");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  await t.call("POST", base(), { body: { metadata: { name: "c1", labels: { a: "b" } }, data: { k: "v" } } });
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await agent.close();
  await t.close();
});

describe("protobuf", () => {
  it("serves an object in protobuf that decodes to the JSON representation", async () => {
    const res = await raw("GET", `${base()}/c1`, { accept: `${PB}, application/json` });
    expect(res.status).toBe(200);
    expect(res.type).toBe(PB);
    expect([...res.bytes.slice(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    const json = (await t.call("GET", `${base()}/c1`)).json;
    expect(decodeObject(res.bytes)).toEqual(json);
  });

  it("serves lists in protobuf", async () => {
    const res = await raw("GET", base(), { accept: PB });
    const list = decodeObject(res.bytes) as { kind: string; items: { metadata: { name: string } }[] };
    expect(list.kind).toBe("ConfigMapList");
    expect(list.items.map((i) => i.metadata.name)).toEqual(["c1"]);
  });

  it("accepts protobuf request bodies", async () => {
    const body = encodeObject({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "from-pb" },
      data: { x: "1" },
    });
    const res = await raw("POST", base(), { body, contentType: PB, accept: "application/json" });
    expect(res.status).toBe(201);
    const got = (await t.call("GET", `${base()}/from-pb`)).json;
    expect(got.data).toEqual({ x: "1" });
  });

  it("answers errors in protobuf when protobuf was negotiated", async () => {
    const res = await raw("GET", `${base()}/missing`, { accept: PB });
    expect(res.status).toBe(404);
    expect(res.type).toBe(PB);
    expect(decodeObject(res.bytes)).toMatchObject({
      kind: "Status",
      reason: "NotFound",
      code: 404,
      message: 'configmaps "missing" not found',
    });
  });

  it("rejects a body with the wrong magic with upstream's 400", async () => {
    const res = await raw("POST", base(), {
      body: new TextEncoder().encode('{"kind":"ConfigMap"}'),
      contentType: PB,
      accept: "application/json",
    });
    expect(res.status).toBe(400);
    const status = JSON.parse(new TextDecoder().decode(res.bytes));
    expect(status.message).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap"})',
    );
  });

  it("streams watch events as length-framed protobuf", async () => {
    const rv = (await t.call("GET", base())).json.metadata.resourceVersion;
    const res = await request(`${t.url}${base()}?watch=1&resourceVersion=${rv}&timeoutSeconds=2`, {
      headers: { authorization: `Bearer ${t.token}`, accept: PB },
      dispatcher: agent,
    });
    expect(res.headers["content-type"]).toBe(`${PB};stream=watch`);
    await t.call("POST", base(), { body: { metadata: { name: "watched" } } });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const len = bytes.readUInt32BE(0);
    const event = decodeWatchEvent(bytes.subarray(4, 4 + len));
    expect(event.type).toBe("ADDED");
    expect((event.object as { metadata: { name: string } }).metadata.name).toBe("watched");
  });
});
