/**
 * /dev/outbox: the development page that lists the emails the outbox holds, newest first, with their
 * plain text (links clickable) and their HTML at /dev/outbox/{id}. Served only when MAIL_OUTBOX_PAGE
 * is set and on a local host: absent in production (decision 041).
 */
import type { AppEnv } from "~/platform/env.server";
import type { Logger } from "~/platform/log.server";
import { composePending } from "~/backend/mail/compose.server";
import type { OutboxRow } from "~/backend/mail/outbox.server";
import { escapeHtml } from "~/lib/html";

/** Escaped text whose http(s) addresses are links. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

const page = (title: string, body: string) =>
  new Response(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>\n`,
    { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
  );

export function isOutboxPath(pathname: string): boolean {
  return pathname === "/dev/outbox" || /^\/dev\/outbox\/\d+$/.test(pathname);
}

export async function outboxPage(env: AppEnv, url: URL, log: Logger): Promise<Response> {
  await composePending({ db: env.DB, signingSecret: env.SESSION_SECRET, now: new Date(), log, assets: env.ASSETS });
  const one = /^\/dev\/outbox\/(\d+)$/.exec(url.pathname);
  if (one) {
    const row = await env.DB.prepare("SELECT * FROM mail_outbox WHERE id = ?").bind(Number(one[1])).first<OutboxRow>();
    if (!row?.html_body) return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    return new Response(row.html_body, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
  }
  const to = url.searchParams.get("to") ?? "";
  const { results } = await env.DB.prepare("SELECT * FROM mail_outbox WHERE (?1 = '' OR to_address = ?1) ORDER BY id DESC LIMIT 50")
    .bind(to)
    .all<OutboxRow>();
  const items = results
    .map(
      (row) => `<article class="mail" data-kind="${row.kind}" data-to="${escapeHtml(row.to_address)}">
<h2>${escapeHtml(row.subject ?? "")}</h2>
<p>To ${escapeHtml(row.to_address)} · ${row.kind} · ${row.lang} · ${row.status}${row.provider_id ? ` (${escapeHtml(row.provider_id)})` : ""} · ${row.created_at}${row.kind === "order_confirmation" ? " · attachment BOOKING_CONFIRMATION.pdf (built when sent)" : ""} · <a href="/dev/outbox/${row.id}">HTML</a></p>
<pre>${linkify(row.text_body ?? "")}</pre>
</article>`,
    )
    .join("\n");
  return page("Outbox", `<main><h1>Outbox</h1>${items || "<p>No messages.</p>"}</main>`);
}
