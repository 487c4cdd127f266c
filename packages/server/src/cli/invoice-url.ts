/**
 * @module cli/invoice-url
 * `records-service invoice-url FLOCK TYPE UID [--db PATH] [--base-url URL]`: prints an
 * invoice's signed link (spec v2-gateway 2.3), signed with the invoice key derived from the
 * database's secret.
 */
import { createRecordEngine, isRecordsError, notFound } from "@records-service/core";
import { storedSecret } from "../derived/card-url.js";
import { invoiceKey, signedInvoicePath } from "../gateway/invoices/signature.js";
import { readInvoiceSource } from "../gateway/invoices/sources.js";
import { describeDb } from "../storage-open.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { withExistingStorage } from "./storage.js";

/** Prints the URL; exit 1 when the flock or the record does not exist. */
export async function runInvoiceUrl(cmd: Extract<Command, { kind: "invoice-url" }>, io: CliIo): Promise<number> {
  return withExistingStorage(cmd.db, async (storage) => {
    try {
      if (!(await storage.getFlock(cmd.flock))) throw notFound("unknown flock", `there is no flock ${JSON.stringify(cmd.flock)}`);
      await readInvoiceSource(createRecordEngine({ storage }), cmd.flock, cmd.invoiceType, cmd.uid);
      const path = signedInvoicePath(invoiceKey(await storedSecret(storage)), cmd.flock, cmd.invoiceType, cmd.uid);
      io.out(`${cmd.baseUrl.replace(/\/+$/, "")}${path}`);
      return EXIT_OK;
    } catch (e) {
      if (!isRecordsError(e)) throw e;
      io.err(`records-service invoice-url: ${e.detail} (in ${describeDb(cmd.db)})`);
      return EXIT_FAILED;
    }
  });
}
