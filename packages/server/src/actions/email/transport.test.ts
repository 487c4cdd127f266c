import { createServer, type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { createSmtpTransport, MailSendError } from "./transport.js";

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let server: SMTPServer | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A loopback SMTP server; `reject` refuses every recipient with a 550. */
async function startSmtp(opts: { reject?: boolean } = {}): Promise<{ port: number; received: Received[] }> {
  const received: Received[] = [];
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!opts.reject) return callback();
      const err = Object.assign(new Error(`mailbox ${address.address} unavailable`), { responseCode: 550 });
      callback(err);
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString("utf8")));
      stream.on("end", () => {
        received.push({ from: String(session.envelope.mailFrom && session.envelope.mailFrom.address), to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { port: (server.server.address() as AddressInfo).port, received };
}

/** A port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("createSmtpTransport", () => {
  it("delivers an HTML message from mail.from", async () => {
    const smtp = await startSmtp();
    const transport = createSmtpTransport({ smtp: `smtp://127.0.0.1:${smtp.port}`, from: "records@example.org" });
    const { messageId } = await transport.send({ to: "ada@example.org", subject: "Hello Ada & Co", html: "<p>Hi</p>" });
    expect(messageId).toMatch(/^<.+>$/);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: "records@example.org", to: ["ada@example.org"] });
    expect(smtp.received[0]!.raw).toContain("Subject: Hello Ada & Co");
    expect(smtp.received[0]!.raw).toContain("Content-Type: text/html");
    expect(smtp.received[0]!.raw).toContain("<p>Hi</p>");
    transport.close();
  });

  it("a refusal (5xx) is permanent", async () => {
    const smtp = await startSmtp({ reject: true });
    const transport = createSmtpTransport({ smtp: `smtp://127.0.0.1:${smtp.port}`, from: "records@example.org" });
    const err = await transport.send({ to: "nobody@example.org", subject: "x", html: "" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailSendError);
    expect(err).toMatchObject({ permanent: true, message: expect.stringMatching(/^smtp: 550 /) });
    expect(smtp.received).toEqual([]);
  });

  it("an unreachable server is not permanent", async () => {
    const transport = createSmtpTransport({ smtp: `smtp://127.0.0.1:${await closedPort()}`, from: "records@example.org" });
    const err = await transport.send({ to: "ada@example.org", subject: "x", html: "" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailSendError);
    expect(err).toMatchObject({ permanent: false, message: expect.stringMatching(/^smtp: .*ECONNREFUSED/) });
  });
});
