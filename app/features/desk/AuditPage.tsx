/** The audit log (audit-page.server.ts): newest first, one card per entry (readable at 360 px), and the link to older ones. Read only. */
import { Link } from "@remix-run/react";
import type { DeskAudit } from "~/contract/desk-staff-schemas";
import { useDeskWords } from "./words";

/** A before/after JSON as short "key: value" lines; `{}` shows nothing. */
function Changes({ json }: { json: string }) {
  let entries: [string, unknown][] = [];
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === "object") entries = Object.entries(parsed);
  } catch {
    entries = [["", json]];
  }
  if (entries.length === 0) return <>—</>;
  return (
    <>
      {entries.map(([key, value]) => (
        <span key={key} className="desk__change">
          {key ? `${key}: ` : ""}
          {typeof value === "string" ? value : JSON.stringify(value)}
        </span>
      ))}
    </>
  );
}

export function AuditPage({ page }: { page: DeskAudit & { first: boolean } }) {
  const w = useDeskWords();
  return (
    <main id="main" className="desk__main">
      <h1>{w("audit.title")}</h1>
      <p>{w("audit.intro")}</p>
      {page.entries.length === 0 ? <p>{w("audit.empty")}</p> : null}
      <ol className="desk__audit">
        {page.entries.map((entry) => (
          <li key={entry.id} className="desk__card" data-audit-action={entry.action}>
            <dl>
              <dt>{w("audit.when")}</dt>
              <dd>
                <time dateTime={entry.created_at}>{entry.created_at.replace("T", " ").slice(0, 19)} UTC</time>
              </dd>
              <dt>{w("audit.who")}</dt>
              <dd>{entry.staff_email || w("audit.nobody")}</dd>
              <dt>{w("audit.from")}</dt>
              <dd>{entry.ip || "—"}</dd>
              <dt>{w("audit.action")}</dt>
              <dd>
                <code>{entry.action}</code>
              </dd>
              <dt>{w("audit.subject")}</dt>
              <dd>{entry.subject || "—"}</dd>
              <dt>{w("audit.before")}</dt>
              <dd>
                <Changes json={entry.before} />
              </dd>
              <dt>{w("audit.after")}</dt>
              <dd>
                <Changes json={entry.after} />
              </dd>
            </dl>
          </li>
        ))}
      </ol>
      <nav className="desk__pages">
        {page.first ? null : <Link to=".">{w("audit.newest")}</Link>}
        {page.next_before ? <Link to={`?before=${page.next_before}`}>{w("audit.older")}</Link> : null}
      </nav>
    </main>
  );
}
