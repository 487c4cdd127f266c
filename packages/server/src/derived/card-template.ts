/**
 * @module derived/card-template
 * The member card page as an Eta template, held in code rather than read from a file at
 * run time, so the bundled server carries it. Every `<%= %>` is escaped (autoEscape); the
 * page is self-contained (inline CSS, no fonts, scripts or images) and prints on one page.
 * `it` is the view model built by `renderCard` (derived/card.ts).
 */

/** The Eta source of the card page. */
export const CARD_TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Membership card: <%= it.name %></title>
<style>
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
    background: #eef1f5; color: #1d2430; padding: 24px;
    font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
  .card { width: 100%; max-width: 440px; background: #fff; border-radius: 16px; overflow: hidden;
    box-shadow: 0 8px 28px rgba(20, 30, 50, 0.16); border: 1px solid #d6dbe3; }
  .card header { background: #1f4e79; color: #fff; padding: 18px 24px; }
  .flock { margin: 0; font-size: 0.85rem; letter-spacing: 0.08em; text-transform: uppercase; opacity: 0.9; }
  .kind { margin: 2px 0 0; font-size: 1rem; font-weight: 600; }
  .body { padding: 20px 24px 24px; }
  .name { margin: 0 0 16px; font-size: 1.6rem; font-weight: 700; line-height: 1.2; overflow-wrap: anywhere; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 8px 16px; margin: 0; }
  dt { color: #5b6574; font-size: 0.85rem; align-self: center; }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
  .status { display: inline-block; padding: 2px 10px; border-radius: 999px; font-size: 0.85rem;
    background: #e7ecf2; color: #1d2430; }
  .status.active { background: #dff3e4; color: #14532d; }
  .status.ended { background: #fde2e1; color: #7f1d1d; }
  .status.pending { background: #fdf2d7; color: #713f12; }
  @media print {
    body { background: #fff; min-height: 0; padding: 0; display: block; }
    .card { box-shadow: none; margin: 0 auto; break-inside: avoid; }
    .card header { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    .status { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  }
</style>
</head>
<body>
<main class="card" aria-label="Membership card">
  <header>
    <p class="flock"><%= it.flockName %></p>
    <p class="kind">Membership card</p>
  </header>
  <div class="body">
    <h1 class="name"><%= it.name %></h1>
    <dl>
<% for (const row of it.rows) { %>
      <dt><%= row.label %></dt>
<% if (row.datetime) { %>
      <dd><time datetime="<%= row.datetime %>"><%= row.value %></time></dd>
<% } else if (row.tone) { %>
      <dd><span class="status <%= row.tone %>"><%= row.value %></span></dd>
<% } else { %>
      <dd><%= row.value %></dd>
<% } %>
<% } %>
    </dl>
  </div>
</main>
</body>
</html>
`;
