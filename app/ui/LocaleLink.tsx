import { Link, type LinkProps } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { isLanguage, localizePath, DEFAULT_LANGUAGE } from "~/i18n/languages";

/** A link to a site path in the current language: components never build localized paths by hand. */
export function LocaleLink({ to, ...props }: Omit<LinkProps, "to"> & { to: string }) {
  const { i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return <Link {...props} to={to.startsWith("/") ? localizePath(to, lang) : to} />;
}
