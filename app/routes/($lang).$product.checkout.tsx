import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, redirect, useActionData, useLoaderData, useNavigation, useSubmit, type ClientActionFunctionArgs } from "@remix-run/react";
import { useRef, type FormEvent } from "react";
import { checkoutAction, checkoutPage } from "~/features/checkout/checkout.server";
import { lodgingUnit, unitKey } from "~/domain/units";
import { BookerFields } from "~/features/checkout/BookerFields";
import { CheckoutLines } from "~/features/checkout/CheckoutLines";
import { CheckoutSummary } from "~/features/checkout/CheckoutSummary";
import { CaptchaField } from "~/features/captcha/CaptchaField";
import { fieldProps, type FieldErrors, type Values } from "~/features/checkout/fields";
import { PaymentFields } from "~/features/checkout/PaymentFields";
import { InvoiceFields } from "~/features/checkout/InvoiceFields";
import { AddonFields } from "~/features/addons/AddonFields";
import { RailSection } from "~/features/rail/RailSection";
import { focusFirstInvalid, useHydrated, useSubmissionDone } from "~/ui/forms";
import { usePreloadRoute } from "~/ui/preload-route";
import { handOver, isHandOff } from "~/ui/handoff";
import { useSite } from "~/ui/site-data";
import { formatDate } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";

/**
 * The checkout hydrates. Its HTML carries its components' words and those of the pages its answer
 * hands over to without a request more (the pay page, the order page: decisions 127, 144).
 */
export const handle = {
  hydrate: true,
  booking: true,
  words: ["checkout", "cart", "payment", "captcha", "rail", "order", "pay", "order_page", "receipt", "cancel_page"],
};

export const loader = (args: LoaderFunctionArgs) => checkoutPage(args);
export const action = (args: ActionFunctionArgs) => checkoutAction(args);

/**
 * With JavaScript, a placed booking's answer carries the pay page's data: it is kept for the pay
 * page and the guest taken there without asking the server again (decision 127).
 */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  const answer = await serverAction<typeof action>();
  if (!isHandOff(answer)) return answer;
  handOver(answer.handoff);
  return redirect(answer.handoff.path, 303);
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function CheckoutPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof clientAction>();
  const site = useSite();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const lang = site?.lang ?? "zh-TW";
  // Before the form is sent, it starts from the draft kept when the guest went to the rail page.
  const values: Values = actionData?.values ?? data.draft;
  const fieldErrors: FieldErrors = actionData?.fieldErrors ?? data.fieldErrors;
  // An answer that checked the price replaces the page's, also with none (an extra asked for beyond
  // what is left): the first visit's price, without it, is not what would be charged.
  const price = actionData && actionData.price !== undefined ? actionData.price : data.price;
  const priceError = actionData ? actionData.priceError : data.priceError;
  // A refusal of a way of paying the cart no longer allows carries the ways it allows (the page's
  // data is not reloaded after a refusal with JavaScript).
  const payments = actionData?.paymentChoices ?? data;
  const busy = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  // Until the guest sends the form, the booker fields start from the member's profile (spec §6).
  const prefill: Values = actionData ? {} : data.booker;
  // Each message is shown once: one the price check marks a line with stays at that line, and
  // the top of the page points there instead of repeating it.
  const lineMessages = new Set((price?.lines ?? []).flatMap((line) => (line.error ? [line.error.message] : [])));
  const pageMessages = [
    ...new Set(
      [actionData?.formError ? t(actionData.formError) : null, priceError]
        .filter((message): message is string => Boolean(message))
        .map((message) => (lineMessages.has(message) ? t("checkout.error.see_lines") : message)),
    ),
  ];
  const hydrated = useHydrated();
  // "Place booking" leads to the pay page: its script is here before the booking is placed.
  usePreloadRoute("routes/($lang).pay.$hotelId.$orderDoc");
  const form = useRef<HTMLFormElement>(null);
  // With JavaScript the page is not reloaded: take the guest to the first field to fix, or to the message (decision 021).
  useSubmissionDone(() => {
    if (!focusFirstInvalid(form.current)) document.querySelector<HTMLElement>(".checkout-page .alert")?.focus();
  });
  // With JavaScript "Due now" follows the pay option as it changes: the price is checked again for
  // the new choice, as "Check the price" would (decision 065). Without it, placing the booking
  // shows the new amount first.
  const submit = useSubmit();
  const repriceOnPayOption = (event: FormEvent<HTMLFormElement>) => {
    if (!(event.target instanceof HTMLInputElement) || event.target.name !== "pay_option") return;
    const formData = new FormData(event.currentTarget);
    formData.set("intent", "price");
    submit(formData, { method: "post" });
  };
  const field = fieldProps(values, prefill, fieldErrors);
  return (
    <main id="main" className={`page checkout-page booking booking--${site?.layout.booking ?? "booking_100"}`}>
      <p className="breadcrumb">
        <a href={data.bookingPage}>← {t(unitKey("checkout.back", lodgingUnit(site?.hotel.kind)))}</a>
      </p>
      <h1>{t("checkout.title")}</h1>
      <p className="checkout-page__stay">
        {formatDate(data.stay.start, lang)} – {formatDate(data.stay.end, lang)}
      </p>
      {pageMessages.map((message) => (
        <p key={message} className="alert alert--danger" tabIndex={-1} role="alert">
          {message}
        </p>
      ))}
      <Form
        method="post"
        className="checkout-form"
        aria-busy={busy ? true : undefined}
        noValidate={hydrated}
        ref={form}
        onChange={repriceOnPayOption}
      >
        <input type="hidden" name="csrf" value={data.csrf} />
        <input type="hidden" name="checkout_key" value={data.checkoutKey} />
        {/* Enter in a text field submits with the form's first button. "Use this name" (beside a company
            name advice, decision 168) would be it: a first button that checks the price, as Enter did. */}
        {actionData?.registeredCompanyName && !data.rail ? (
          <button type="submit" name="intent" value="price" formNoValidate hidden tabIndex={-1}>
            {t("checkout.check_price")}
          </button>
        ) : null}
        <div className="checkout-layout">
          <div className="checkout-main">
            {/* First, as before; its button keeps what is typed below as the checkout's draft before leaving for the rail page. */}
            <RailSection rail={data.rail} price={price} busy={busy === "rail"} />
            <BookerFields field={field} fieldErrors={fieldErrors} company={!data.invoiceIssuer} />
            <CheckoutLines lines={data.lines} price={price} field={field} fieldErrors={fieldErrors} />
            <AddonFields groups={data.addons} values={values} fieldErrors={fieldErrors} />
            <PaymentFields
              payments={payments.payments}
              note={payments.paymentsNote}
              defaultPayment={payments.defaultPayment}
              resetKey={actionData?.paymentReset}
              deposit={data.deposit}
              values={values}
              fieldErrors={fieldErrors}
            />
            {data.invoiceIssuer ? (
              <InvoiceFields
                issuer={data.invoiceIssuer}
                field={field}
                values={{ ...prefill, ...values }}
                fieldErrors={fieldErrors}
                registeredName={actionData?.registeredCompanyName}
              />
            ) : null}
          </div>
          <CheckoutSummary
            member={data.member}
            coupons={data.coupons}
            price={price}
            busy={busy}
            promotionKey={actionData?.promotionReset ?? "entered"}
            values={values}
            field={field}
            fieldErrors={fieldErrors}
            beforeOrder={<CaptchaField captcha={actionData?.captcha} />}
          />
        </div>
      </Form>
    </main>
  );
}
