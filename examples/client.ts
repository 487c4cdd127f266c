/**
 * @module examples/client
 * An integration written with `@records-service/client` against a local server in emulator
 * mode: log in, create a member and a membership ending in 20 days, list with the filter
 * builder, and move the service's clock 14 days to see the `expiring_2wk` event fire without
 * waiting two weeks. Run it with:
 *
 *   node --conditions=source --import tsx examples/client.ts
 *
 * It starts its own server (`:memory:`, manual clock). Against a server you run yourself
 * (`npx records-service serve --clock manual`), pass its URL and an admin's credentials to
 * `main` instead; against the hosted service, its URL and your key (no clock there).
 */
import { pathToFileURL } from "node:url";
import { createClient, query, type PersonData } from "@records-service/client";
import { createManualClock, parseConfig, startServer } from "@records-service/server";

/** What the example saw, so its test can check it. */
export interface ClientExampleResult {
  flocks: string[];
  /** Persons whose last name starts with "Lo", across every page. */
  found: string[];
  /** The clock after the advance, and what fired on the way. */
  advanced: { now: string; fired: Record<string, number> };
  /** The data events named expiring_2wk after the advance. */
  expiringEvents: number;
}

/**
 * Runs the example against `target`, or a server of its own.
 *
 * @example
 * const result = await main(() => {}); result.advanced.fired; // { expiring_2wk: 1 }
 */
export async function main(
  print: (line: string) => void = console.log,
  target?: { baseUrl: string; username: string; password: string },
): Promise<ClientExampleResult> {
  const own = target
    ? undefined
    : await startServer({
        db: ":memory:",
        host: "127.0.0.1",
        port: 0,
        clock: createManualClock(new Date("2026-01-01T00:00:00Z")),
        config: parseConfig({
          flocks: [{ identifier: "demo", name: "Demo Society" }],
          users: [{ username: "admin", password: "example password", flocks: ["*"] }],
          triggers: [{ flock: "demo", trigger: "expiring_2wk", action: "draft-templated-email", template: "reminder" }],
          templates: [{ flock: "demo", name: "reminder", subject: "Your membership ends soon", body: "Dear <%= it.contact?.first_name %>" }],
        }),
      });
  try {
    const { baseUrl, username, password } = target ?? { baseUrl: own!.url, username: "admin", password: "example password" };
    const client = createClient({ baseUrl, application: "Example/ClientExample/1.0", credentials: { username, password } });

    const flocks = (await client.flocks()).map((f) => f.identifier);
    print(`flocks: ${flocks.join(", ")}`);

    const people = client.records("demo", "person");
    const ada = await people.create({ first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"] });
    await people.create({ first_name: "Jane", last_name: "Lowe" });
    print(`created ${ada.display_value} (${ada.uri})`);

    const found: string[] = [];
    for await (const p of people.all(query<PersonData>().where("last_name", "startswith", "Lo").pageSize(1))) found.push(p.display_value);
    print(`last names starting with Lo: ${found.join(", ")}`);

    const now = new Date(`${(await client.clock.now()).slice(0, 19)}Z`);
    const endDate = new Date(now.getTime() + 20 * 86_400_000).toISOString().slice(0, 10);
    await client.records("demo", "membership").create({ member: ada.uri, end_date: endDate, auto_renew: false });
    print(`membership ends ${endDate}; moving the clock 14 days`);

    const advanced = await client.clock.advance({ days: 14 });
    print(`now ${advanced.now}; fired: ${JSON.stringify(advanced.fired)}`);
    const expiring = await client.dataEvents("demo").list(query<{ name: string }>().where("name", "expiring_2wk"));
    return { flocks, found, advanced, expiringEvents: expiring.grand_total };
  } finally {
    await own?.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
