import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "~/ui/LocaleLink";
import { fixedT } from "~/i18n/i18next.server";
import { finishSignIn, isSignInFailure } from "~/features/account/sign-in.server";
import { memberSystemOpen } from "~/platform/session.server";
import { notFound, requireProduct } from "~/platform/not-found.server";

/**
 * /{product}/oauth/callback (spec §2): the account service returns here with a code; signing in
 * finishes and the guest goes back to where they were. A failure comes back here as `?error=`
 * and is shown as spec §8 says.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = requireProduct(params, context);
  if (!memberSystemOpen(app)) throw notFound();
  const url = new URL(request.url);
  const error = url.searchParams.get("error");
  if (url.searchParams.has("code") || url.searchParams.has("state") || (error && !isSignInFailure(error)))
    throw await finishSignIn(app, request);
  const reason = isSignInFailure(error) ? error : "state";
  const t = await fixedT(app.lang);
  return { title: `${t("login.title")} | ${hotel.hotel_name}`, reason, product: app.env.PRODUCT };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function SignInCallback() {
  const { reason, product } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id="main" className="page sign-in-page">
      <h1>{t("login.title")}</h1>
      <p className="alert alert--danger" role="alert">
        {reason === "exchange" ? t("login.failed") : t("login.refused", { reason: t(`login.reason.${reason}`) })}
      </p>
      <p>
        <LocaleLink to={`/${product}/login`} className="button" reloadDocument>
          {t("login.try_again")}
        </LocaleLink>{" "}
        <LocaleLink to="/" className="text-link">
          {t("not_found.home")}
        </LocaleLink>
      </p>
    </main>
  );
}
