/**
 * @module actions/email/transport
 * How a composed email leaves the process: over SMTP with nodemailer when `mail.smtp` is
 * set. A failure says whether trying again can help: SMTP 5xx replies are permanent (the
 * server refused this message), everything else (4xx, refused connection, timeout) is not.
 */
import nodemailer from "nodemailer";
import type { MailConfig } from "../../config/schema.js";

/** One message to send. The body is HTML. */
export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
}

/** Why a send failed. */
export class MailSendError extends Error {
  override readonly name = "MailSendError";
  constructor(
    message: string,
    /** True when the server refused the message for good (SMTP 5xx). */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** Sends mail; resolves with the message id, or rejects with `MailSendError`. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** How long one SMTP conversation may take, in each phase. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * An SMTP transport for `mail.smtp` (`smtp://` or `smtps://`, credentials in the URL),
 * sending from `mail.from`.
 *
 * @example
 * const t = createSmtpTransport({ smtp: "smtp://127.0.0.1:2525", from: "records@example.org" });
 * await t.send({ to: "ada@example.org", subject: "Hello", html: "<p>Hi</p>" });
 */
export function createSmtpTransport(mail: MailConfig): MailTransport {
  const transporter = nodemailer.createTransport(mail.smtp, {
    from: mail.from,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(m) {
      try {
        const info = await transporter.sendMail({ to: m.to, subject: m.subject, html: m.html });
        return { messageId: String(info.messageId ?? "") };
      } catch (e) {
        const err = e as { message?: string; responseCode?: number };
        const code = typeof err.responseCode === "number" ? err.responseCode : undefined;
        const text = `smtp: ${code ? `${code} ` : ""}${String(err.message ?? e).split("\n")[0]}`;
        throw new MailSendError(text, code !== undefined && code >= 500);
      }
    },
    close: () => transporter.close(),
  };
}
