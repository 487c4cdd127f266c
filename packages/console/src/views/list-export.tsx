/**
 * @module views/list-export
 * "Export CSV" / "Export XLSX": the server writes the filtered list
 * (`GET /api/v1/{flock}/{type}/export`, every page, the chosen columns); the file is fetched
 * with the key and handed to the browser as a download, so the console carries no
 * spreadsheet code.
 */
import { useState } from "preact/hooks";
import { CONSOLE_APPLICATION } from "../api.js";
import { apiParams } from "../query.js";
import { session } from "../session.js";
import { encodePart } from "../text.js";

export function ExportButtons({ flock, type, params, columns }: { flock: string; type: string; params: URLSearchParams; columns: string[] }) {
  const [message, setMessage] = useState("");
  const download = async (format: "csv" | "xlsx") => {
    const q = apiParams(params);
    for (const k of ["page", "page_size", "limit"]) q.delete(k);
    q.set("format", format);
    q.set("columns", ["id", "state", "created", "last_updated", ...columns].join(","));
    setMessage(`Preparing ${format.toUpperCase()}…`);
    const res = await fetch(`/api/v1/${encodePart(flock)}/${encodePart(type)}/export?${q}`, {
      headers: { authorization: `Bearer ${session.key() ?? ""}`, application: CONSOLE_APPLICATION },
    });
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as { error?: string; error_detail?: string };
      setMessage(`Export failed: ${body.error ?? res.status}${body.error_detail ? `: ${body.error_detail}` : ""}`);
      return;
    }
    const href = URL.createObjectURL(await res.blob());
    const a = Object.assign(document.createElement("a"), { href, download: `${flock}-${type}.${format}` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
    setMessage(`${format.toUpperCase()} ready.`);
  };
  return (
    <span class="row export">
      <button type="button" onClick={() => download("csv")}>
        Export CSV
      </button>
      <button type="button" onClick={() => download("xlsx")}>
        Export XLSX
      </button>
      {message && <span role="status">{message}</span>}
    </span>
  );
}
