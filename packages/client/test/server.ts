/**
 * A real server for the client's tests: `startServer` on a free port over `:memory:`, with
 * flock demo, an administrator and a staff user (cheap password hashes), and a webhook
 * receiver when asked for.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createManualClock, parseConfig, startServer, type RunningServer } from "@records-service/server";

export const ADMIN = { username: "admin", password: "client test password" };
export const STAFF = { username: "staff", password: "client test password" };
export const APPLICATION = "Tests/client/1.0";

/** The scrypt cost of the test users (the shipped one takes a third of a second a hash). */
const CHEAP = { N: 16, r: 1, p: 1 } as const;

export async function testServer(opts: { manualClock?: string; triggers?: unknown[]; db?: string; port?: number } = {}): Promise<RunningServer> {
  return startServer({
    db: opts.db ?? ":memory:",
    host: "127.0.0.1",
    port: opts.port ?? 0,
    passwordCost: CHEAP,
    ...(opts.manualClock ? { clock: createManualClock(new Date(opts.manualClock)) } : {}),
    config: parseConfig({
      secret: "client-test-secret-0123456789",
      flocks: [{ identifier: "demo", name: "Demo Society" }],
      users: [
        { ...ADMIN, flocks: ["*"] },
        { ...STAFF, flocks: ["demo"] },
      ],
      webhooks: { allowInsecureUrls: true, allowPrivateTargets: true },
      triggers: opts.triggers ?? [],
    }),
  });
}

/** A webhook receiver that records the trigger of each delivery. */
export async function webhookReceiver(): Promise<{ url: string; triggers: string[]; close(): Promise<void> }> {
  const triggers: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      triggers.push(JSON.parse(body).trigger);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    triggers,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
