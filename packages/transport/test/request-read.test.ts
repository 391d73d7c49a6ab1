/**
 * requestRead: a successful body goes through the reader chosen from its headers, chunk by chunk;
 * what the reader throws ends the call unchanged and unretried; a body cut off is retried (GET)
 * with a fresh reader; without a reader the body is collected as by request().
 */
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { ApiError, type BodyReader, type ResponseHeaders } from "../src/index.js";
import { useHarness } from "./helpers/harness.js";
import { rejection } from "./helpers/rejection.js";
import { sendJson, statusBody } from "./helpers/test-server.js";

const harness = useHarness();
const GET = { method: "GET", path: "/api/v1/configmaps" } as const;

/** A reader noting every chunk and answering their joined text. */
function textReader(log: string[]): BodyReader<string> {
  return {
    push: (chunk) => void log.push(Buffer.from(chunk).toString()),
    end: () => log.join(""),
  };
}

/** Writes `parts` one after the other, each once the previous one has been flushed. */
function writeInParts(res: http.ServerResponse, parts: readonly string[]): void {
  res.writeHead(200, { "content-type": "text/plain" });
  const next = (i: number) => {
    if (i === parts.length) return void res.end();
    res.write(parts[i], () => setImmediate(() => next(i + 1)));
  };
  next(0);
}

describe("HttpTransport.requestRead", () => {
  it("hands each chunk to the reader chosen by the headers, and answers what it ends with", async () => {
    const s = await harness.serve((_seen, _req, res) => writeInParts(res, ["one,", "two,", "three"]));
    const log: string[] = [];
    const seenTypes: (string | string[] | undefined)[] = [];
    const res = await harness.transport(s.url).requestRead(GET, {}, (headers: ResponseHeaders) => {
      seenTypes.push(headers["content-type"]);
      return textReader(log);
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe("one,two,three");
    expect(log.length).toBeGreaterThan(1);
    expect(seenTypes).toEqual(["text/plain"]);
  });

  it("collects the body when no reader is chosen, as request() does", async () => {
    const s = await harness.serve((_seen, _req, res) => writeInParts(res, ["a", "b"]));
    const res = await harness.transport(s.url).requestRead(GET, {}, () => undefined);
    expect(Buffer.from(res.body as Uint8Array).toString()).toBe("ab");
  });

  it("ends the call with what the reader throws, without retrying, and frees the connection", async () => {
    const s = await harness.serve((_seen, _req, res) => writeInParts(res, ["good", "bad", "more"]));
    const transport = harness.transport(s.url);
    const failure = new Error("the reader refused this chunk");
    const err = await rejection(
      transport.requestRead(GET, {}, () => ({
        push: (chunk) => {
          if (Buffer.from(chunk).toString().includes("bad")) throw failure;
        },
        end: () => "never",
      })),
    );
    expect(err).toBe(failure);
    expect(s.requests).toHaveLength(1);
    const again = await transport.requestRead(GET, {}, () => textReader([]));
    expect(again.body).toBe("goodbadmore");
  });

  it("retries a GET whose body was cut off, with a fresh reader", async () => {
    let n = 0;
    const s = await harness.serve((_seen, _req, res) => {
      if (n++ > 0) return writeInParts(res, ["whole"]);
      res.writeHead(200, { "content-type": "text/plain", "content-length": "100" });
      res.write("part", () => res.socket?.destroy());
    });
    const logs: string[][] = [];
    const res = await harness.transport(s.url).requestRead(GET, {}, () => {
      const log: string[] = [];
      logs.push(log);
      return textReader(log);
    });
    expect(res.body).toBe("whole");
    expect(logs).toHaveLength(2);
    expect(s.requests).toHaveLength(2);
  });

  it("does not offer a failed response to the reader: it is an ApiError", async () => {
    const s = await harness.serve((_seen, _req, res) =>
      sendJson(res, 404, statusBody(404, "NotFound", 'configmaps "x" not found')),
    );
    let chosen = 0;
    const err = await rejection(
      harness.transport(s.url).requestRead(GET, {}, () => {
        chosen++;
        return textReader([]);
      }),
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).statusCode).toBe(404);
    expect(chosen).toBe(0);
  });
});
