/**
 * The desk's frame around every desk page: the hotel's colours (the site's theme, as its sign-in
 * pages), the desk's own header with its navigation and sign-out for a signed-in staff member, or
 * only the sentence that the hotel's own system is its desk when the site has an external back end.
 */
import { Form, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import type { Language } from "~/i18n/languages";
import { deskPath } from "./paths";
import { useDeskWords } from "./words";

export interface DeskFrameData {
  external: boolean;
  staff: { name: string; email: string; role: string } | null;
  csrf: string;
}

export function DeskFrame({ frame, children }: { frame: DeskFrameData; children: ReactNode }) {
  const w = useDeskWords();
  const { i18n } = useTranslation();
  const lang = i18n.language as Language;
  const owner = frame.staff?.role === "owner";
  return (
    <div className="desk">
      <header className="desk__header">
        <p className="desk__title">{w("title")}</p>
        {frame.staff ? (
          <>
            <nav className="desk__nav" aria-label={w("nav.label")}>
              <NavLink to={deskPath(lang, "/bookings")}>{w("nav.bookings")}</NavLink>
              <NavLink to={deskPath(lang, "/calendar")}>{w("nav.calendar")}</NavLink>
              <NavLink to={deskPath(lang, "/reports")}>{w("nav.reports")}</NavLink>
              {owner ? <NavLink to={deskPath(lang, "/staff")}>{w("nav.staff")}</NavLink> : null}
              {owner ? <NavLink to={deskPath(lang, "/audit")}>{w("nav.audit")}</NavLink> : null}
            </nav>
            <Form method="post" action={deskPath(lang, "/sign-out")} className="desk__sign-out">
              <span className="desk__who">{w("signed_in_as", { name: frame.staff.name || frame.staff.email })}</span>
              <input type="hidden" name="csrf" value={frame.csrf} />
              <button type="submit" className="button button--secondary">
                {w("nav.sign_out")}
              </button>
            </Form>
          </>
        ) : null}
      </header>
      {frame.external ? (
        <main id="main" className="desk__main">
          <p className="alert alert--info" role="status">
            {w("external")}
          </p>
        </main>
      ) : (
        children
      )}
    </div>
  );
}
