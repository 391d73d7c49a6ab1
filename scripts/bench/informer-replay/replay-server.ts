/**
 * A static replay server on 127.0.0.1: answers list, paged list, watch and streaming-list requests
 * for one collection with bytes encoded before the first request, so a benchmark times the client
 * alone. A watch sends its pre-encoded events, then stays open and silent until the client leaves.
 * Query parameters other than those below are ignored (every list is the same snapshot).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Encoded, type Fixtures, LIST_PATH } from "./fixtures.js";

const PROTOBUF = "application/vnd.kubernetes.protobuf";

function wantsProtobuf(req: IncomingMessage): boolean {
  return (req.headers.accept ?? "").startsWith(PROTOBUF);
}

function send(res: ServerResponse, body: Encoded, protobuf: boolean): void {
  const bytes = protobuf ? body.protobuf : body.json;
  res.writeHead(200, {
    "content-type": protobuf ? PROTOBUF : "application/json",
    "content-length": bytes.length,
  });
  res.end(bytes);
}

/**
 * Watch events are held back until the client asks for them (POST /go, after it has synced), so
 * every contender's watch is timed from the same point and does not overlap its own sync. POST
 * /arm, at the start of a run, holds them again.
 */
class Gate {
  #open = false;
  #waiting: (() => void)[] = [];
  arm(): void {
    this.#open = false;
  }
  release(): void {
    this.#open = true;
    for (const w of this.#waiting.splice(0)) w();
  }
  whenOpen(f: () => void): void {
    if (this.#open) f();
    else this.#waiting.push(f);
  }
}

const gate = new Gate();

function stream(res: ServerResponse, now: Buffer[], held: Buffer, contentType: string): void {
  res.writeHead(200, { "content-type": contentType, "transfer-encoding": "chunked" });
  res.flushHeaders();
  for (const b of now) res.write(b);
  gate.whenOpen(() => res.write(held));
  // Stays open: the client closes it.
}

function handle(fixtures: Fixtures, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://replay");
  if (url.pathname === "/go" || url.pathname === "/arm") {
    if (url.pathname === "/go") gate.release();
    else gate.arm();
    res.writeHead(204);
    res.end();
    return;
  }
  if (url.pathname !== LIST_PATH) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", code: 404, reason: "NotFound" }),
    );
    return;
  }
  const q = url.searchParams;
  const protobuf = wantsProtobuf(req);
  if (q.get("watch") === "true" || q.get("watch") === "1") {
    if (q.get("sendInitialEvents") === "true") {
      stream(
        res,
        [protobuf ? fixtures.initialEvents.protobuf : fixtures.initialEvents.json],
        protobuf ? fixtures.watch.protobuf : fixtures.watch.json,
        protobuf ? `${PROTOBUF};stream=watch` : "application/json",
      );
      return;
    }
    stream(
      res,
      [],
      protobuf ? fixtures.watch.protobuf : fixtures.watch.json,
      protobuf ? `${PROTOBUF};stream=watch` : "application/json",
    );
    return;
  }
  const token = q.get("continue");
  const limit = Number(q.get("limit") ?? "0");
  if (token !== null && token !== "") {
    const first = Number(token.slice(1));
    if (!(Number.isInteger(first) && first > 0 && first < fixtures.pages.blocks)) {
      res.writeHead(410, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", code: 410, reason: "Expired" }),
      );
      return;
    }
    send(res, fixtures.pages.page(first, limit), protobuf);
    return;
  }
  if (limit > 0 && fixtures.pages.blocks > 0) send(res, fixtures.pages.page(0, limit), protobuf);
  else send(res, fixtures.fullList, protobuf);
}

export async function startReplayServer(fixtures: Fixtures): Promise<{ server: Server; url: string }> {
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume();
    handle(fixtures, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}
