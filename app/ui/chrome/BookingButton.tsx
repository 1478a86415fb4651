/** "Book now": to the booking page, or where the hotel books (spec §2). */
import { useTranslation } from "~/i18n/react";
import type { SiteData } from "~/platform/site.server";

export function BookingButton({ site, className = "button" }: { site: SiteData; className?: string }) {
  const { t } = useTranslation();
  if (site.booking.kind === "external") {
    return (
      <a href={site.booking.href} className={className} rel="noopener noreferrer" target="_blank">
        {t("nav.book")}
      </a>
    );
  }
  return (
    <a href={site.booking.href} className={className}>
      {t("nav.book")}
    </a>
  );
}
