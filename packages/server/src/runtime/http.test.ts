import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { listen } from "./http.js";

/** A GET on a new connection, or on `agent`'s (a keep-alive agent leaves the socket open after the answer). */
function get(port: number, path: string, agent: Agent | false = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("listen", () => {
  it("finishes a keep-alive request in flight before close resolves, then refuses connections", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let arrived!: () => void;
    const inFlight = new Promise<void>((r) => (arrived = r));
    const listener = await listen(
      async () => {
        arrived();
        await held;
        return new Response("done");
      },
      "127.0.0.1",
      0,
    );
    // Keep-alive: once answered, the socket turns idle and must not hold the close up.
    const agent = new Agent({ keepAlive: true });
    const answer = get(listener.port, "/slow", agent);
    await inFlight;
    let closed = false;
    const closing = listener.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    release();
    const released = Date.now();
    expect(await answer).toEqual({ status: 200, body: "done" });
    await closing;
    // A close that waited for the idle keep-alive socket would take Node's keep-alive
    // timeout (5 s); the bound sits well below it but leaves a loaded machine room.
    expect(Date.now() - released).toBeLessThan(4_000);
    agent.destroy();
    await expect(get(listener.port, "/")).rejects.toThrow(/ECONNREFUSED/);
  });

  it("does not wait for idle keep-alive sockets", async () => {
    const listener = await listen(() => new Response("ok"), "127.0.0.1", 0);
    const agent = new Agent({ keepAlive: true });
    expect((await get(listener.port, "/", agent)).body).toBe("ok");
    expect(agent.freeSockets).not.toEqual({});
    const started = Date.now();
    await listener.close(60_000);
    // Waiting for the idle socket would take the 5 s keep-alive timeout (or the grace).
    expect(Date.now() - started).toBeLessThan(4_000);
    agent.destroy();
  });

  it("cuts a request that outlives the grace period", async () => {
    const listener = await listen(() => new Promise<Response>(() => {}), "127.0.0.1", 0);
    const answer = get(listener.port, "/never");
    await new Promise((r) => setTimeout(r, 50));
    await listener.close(100);
    await expect(answer).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it("rejects when the port is taken", async () => {
    const first = await listen(() => new Response("ok"), "127.0.0.1", 0);
    await expect(listen(() => new Response("ok"), "127.0.0.1", first.port)).rejects.toMatchObject({ code: "EADDRINUSE" });
    await first.close();
  });
});
