import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "~/ui/LocaleLink";
import { PhoneLink } from "~/ui/PhoneLink";
import { fixedT } from "~/i18n/i18next.server";
import { requireProduct } from "~/platform/not-found.server";

/** /{product}/maintain: online booking is closed and the hotel has no official booking link (spec §2). */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = requireProduct(params, context);
  const t = await fixedT(app.lang);
  return { title: `${t("maintain.title")} | ${hotel.hotel_name}`, phone: hotel.phone, email: hotel.email };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function MaintainPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id="main" className="page maintain-page">
      <h1>{t("maintain.title")}</h1>
      <p>{t("maintain.body")}</p>
      <p>
        <PhoneLink phone={data.phone} /> · <a href={`mailto:${data.email}`}>{data.email}</a>
      </p>
      <p>
        <LocaleLink to="/" className="text-link">
          {t("not_found.home")}
        </LocaleLink>
      </p>
    </main>
  );
}
