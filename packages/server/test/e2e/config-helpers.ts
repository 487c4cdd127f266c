/**
 * @module test/e2e/config-helpers
 * What the configuration tests (config-reload, e2e config-db and webhooks) share: a loopback
 * webhook receiver whose answer the test switches, a numbered config file, one person
 * created through the API, and a bounded wait for what the processes do meanwhile.
 */
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { expect } from "vitest";

export interface StatusReceiver {
  url: string;
  /** Each request's delivery id and the status answered, in arrival order. */
  got: { id: string; status: number }[];
  /** What the receiver answers now; the test changes `now`. */
  status: { now: number };
  server: Server;
}

/** A loopback receiver answering `status.now` (first `initial`); the caller closes `server`. */
export async function startStatusReceiver(initial: number): Promise<StatusReceiver> {
  const got: StatusReceiver["got"] = [];
  const status = { now: initial };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      got.push({ id: String(req.headers["webhook-id"]), status: status.now });
      res.writeHead(status.now).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, status, server };
}

/** Writes `config` as JSON to a new numbered file under `dir`; returns its path. */
export function writeConfigFile(dir: string, config: object): string {
  const file = join(dir, `config-${++_files}.json`);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** Creates person Ada `last` in flock demo with `key`, expecting 201. */
export async function createPerson(url: string, key: string, last: string, application: string): Promise<void> {
  const res = await fetch(`${url}/api/v1/demo/person/`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, application, "content-type": "application/json" },
    body: JSON.stringify({ first_name: "Ada", last_name: last }),
  });
  expect(res.status).toBe(201);
}

/** `fn`'s first truthy answer, asked every 50 ms; throws naming `what` after `timeoutMs`. */
export async function pollUntil<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// --- internal ---

let _files = 0;
