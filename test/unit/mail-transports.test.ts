import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cloudflareMailer, mailerFromEnv, postmarkMailer, resendMailer, type OutgoingMail } from "~/backend/mail/transports.server";
import type { AppEnv } from "~/platform/env.server";

const mail: OutgoingMail = {
  from: "Kun Zhe Inn <stay@example.com>",
  to: "guest@example.com",
  subject: "堃喆旅店：訂房確認",
  text: "plain",
  html: "<p>html</p>",
  attachments: [{ filename: "BOOKING_CONFIRMATION.pdf", contentType: "application/pdf", content: new TextEncoder().encode("%PDF-1.7") }],
};

/** A provider faked at its HTTP API: records the request, answers as told. */
function fakeProvider(answer: Response) {
  const requests: { url: string; headers: Headers; body: Record<string, unknown> }[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
    return answer;
  }) as typeof fetch;
  return { requests, fetcher };
}

describe("the mail transports", () => {
  it("Resend: bearer key, the message with its PDF in base64, the provider's id back", async () => {
    const provider = fakeProvider(Response.json({ id: "re_1" }));
    expect(await resendMailer("re_key", provider.fetcher).send(mail)).toEqual({ id: "re_1" });
    const [request] = provider.requests;
    expect(request?.url).toBe("https://api.resend.com/emails");
    expect(request?.headers.get("authorization")).toBe("Bearer re_key");
    expect(request?.body).toMatchObject({ from: mail.from, to: [mail.to], subject: mail.subject, text: "plain", html: "<p>html</p>" });
    expect(request?.body.attachments).toEqual([
      { filename: "BOOKING_CONFIRMATION.pdf", content: btoa("%PDF-1.7"), content_type: "application/pdf" },
    ]);
  });

  it("Resend and Postmark: a confirmation PDF of 1 MB leaves whole, in the same base64 as Node's", async () => {
    const pdf = new Uint8Array(randomBytes(1024 * 1024));
    const big: OutgoingMail = { ...mail, attachments: [{ ...mail.attachments[0]!, content: pdf }] };
    const expected = Buffer.from(pdf).toString("base64");
    const resend = fakeProvider(Response.json({ id: "re_2" }));
    await resendMailer("re_key", resend.fetcher).send(big);
    expect((resend.requests[0]?.body.attachments as { content: string }[])[0]?.content).toBe(expected);
    const postmark = fakeProvider(Response.json({ ErrorCode: 0, MessageID: "pm-2" }));
    await postmarkMailer("pm_token", postmark.fetcher).send(big);
    expect((postmark.requests[0]?.body.Attachments as { Content: string }[])[0]?.Content).toBe(expected);
  });

  it("Resend: a refusal is an error that says why", async () => {
    const provider = fakeProvider(new Response('{"message":"invalid from"}', { status: 422 }));
    await expect(resendMailer("re_key", provider.fetcher).send(mail)).rejects.toThrow('HTTP 422: {"message":"invalid from"}');
  });

  it("Postmark: server token header, its field names, and an ErrorCode other than 0 is a failure", async () => {
    const accepted = fakeProvider(Response.json({ ErrorCode: 0, MessageID: "pm-1" }));
    expect(await postmarkMailer("pm_token", accepted.fetcher).send(mail)).toEqual({ id: "pm-1" });
    const [request] = accepted.requests;
    expect(request?.url).toBe("https://api.postmarkapp.com/email");
    expect(request?.headers.get("x-postmark-server-token")).toBe("pm_token");
    expect(request?.body).toMatchObject({
      From: mail.from,
      To: mail.to,
      Subject: mail.subject,
      TextBody: "plain",
      HtmlBody: "<p>html</p>",
      MessageStream: "outbound",
    });
    expect(request?.body.Attachments).toEqual([
      { Name: "BOOKING_CONFIRMATION.pdf", Content: btoa("%PDF-1.7"), ContentType: "application/pdf" },
    ]);

    const refused = fakeProvider(Response.json({ ErrorCode: 300, Message: "Invalid email request" }, { status: 422 }));
    await expect(postmarkMailer("pm_token", refused.fetcher).send(mail)).rejects.toThrow("300 Invalid email request");
  });

  it("Cloudflare: the send_email binding gets a structured message with the attachment", async () => {
    const sent: unknown[] = [];
    const binding = { send: async (message: unknown) => (sent.push(message), { messageId: "cf-1" }) } as unknown as SendEmail;
    expect(await cloudflareMailer(binding).send(mail)).toEqual({ id: "cf-1" });
    expect(sent[0]).toMatchObject({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      attachments: [{ disposition: "attachment", filename: "BOOKING_CONFIRMATION.pdf", type: "application/pdf" }],
    });
  });

  it("is chosen by MAIL_TRANSPORT; a sending transport without its key or binding is a configuration error", () => {
    const env = (values: Partial<AppEnv>) => ({ MAIL_TRANSPORT: "outbox", MAIL_API_KEY: "", ...values }) as AppEnv;
    expect(mailerFromEnv(env({}))).toBeNull();
    expect(mailerFromEnv(env({ MAIL_TRANSPORT: "resend", MAIL_API_KEY: "k" }))?.name).toBe("resend");
    expect(mailerFromEnv(env({ MAIL_TRANSPORT: "postmark", MAIL_API_KEY: "k" }))?.name).toBe("postmark");
    expect(() => mailerFromEnv(env({ MAIL_TRANSPORT: "resend" }))).toThrow("MAIL_API_KEY");
    expect(() => mailerFromEnv(env({ MAIL_TRANSPORT: "cloudflare" }))).toThrow("SEND_EMAIL");
  });
});
