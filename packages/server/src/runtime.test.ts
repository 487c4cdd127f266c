/**
 * What the served process hands the app: Node's request beside the fetch Request, so the
 * body limit reads a body from the socket's request rather than building a full fetch
 * Request around it (twice: node-server's, then one with the bounded body).
 */
import { request } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startServer } from "./runtime.js";

afterEach(() => vi.restoreAllMocks());

describe("startServer", () => {
  it("reads a request's body from Node's request: no fetch Request is built for it", async () => {
    const server = await startServer({ db: ":memory:", host: "127.0.0.1", port: 0, workers: [], seed: false });
    try {
      // The body limit's other path builds one with the global constructor.
      const built = vi.spyOn(globalThis, "Request");
      const status = await _post(`${server.url}/api/v1/demo/person/`, JSON.stringify({ first_name: "Ada" }));
      expect(built).not.toHaveBeenCalled();
      expect(status).toBe(401); // read, then refused: no key
    } finally {
      await server.close();
    }
  });
});

// --- internal ---

/** POSTs `body` as JSON with Node's client (fetch would build Requests in this process); resolves with the status. */
function _post(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
    req.end(body);
  });
}
