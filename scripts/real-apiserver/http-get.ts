import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

export interface HttpGetOptions {
  caPem?: string;
  bearerToken?: string;
  timeoutMs: number;
}

export interface HttpGetResult {
  status: number;
  body: string;
}

/**
 * A single GET for health probes. Node's http(s) is enough here and keeps this
 * script free of the SDK's own transport, which is what it exists to test.
 */
export function httpGet(url: string, options: HttpGetOptions): Promise<HttpGetResult> {
  const target = new URL(url);
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: "GET",
        timeout: options.timeoutMs,
        ...(options.caPem !== undefined ? { ca: options.caPem } : {}),
        headers: options.bearerToken !== undefined ? { authorization: `Bearer ${options.bearerToken}` } : {},
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out after ${options.timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });
}
