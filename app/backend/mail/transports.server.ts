/**
 * One mailer interface, one adapter per way out, chosen by MAIL_TRANSPORT (decision 041):
 * - outbox: no mailer; nothing leaves, the message stays queued and readable in D1 (development, tests);
 * - cloudflare: Cloudflare's `send_email` binding (SEND_EMAIL), structured message with attachment;
 * - resend / postmark: their HTTPS APIs with MAIL_API_KEY.
 */
import { base64 } from "~/lib/crypto";
import type { AppEnv } from "~/platform/env.server";

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: Uint8Array }[];
}

export interface Mailer {
  readonly name: string;
  /** Sends one message; resolves with the provider's message id, rejects when it was not accepted. */
  send(mail: OutgoingMail): Promise<{ id: string }>;
}

export function cloudflareMailer(binding: SendEmail): Mailer {
  return {
    name: "cloudflare",
    async send(mail) {
      const result = await binding.send({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments.map((file) => ({
          disposition: "attachment" as const,
          filename: file.filename,
          type: file.contentType,
          content: file.content,
        })),
      });
      return { id: result.messageId };
    },
  };
}

async function providerError(response: Response): Promise<Error> {
  const body = (await response.text().catch(() => "")).slice(0, 300);
  return new Error(`HTTP ${response.status}: ${body}`);
}

export function resendMailer(apiKey: string, fetcher: typeof fetch = fetch): Mailer {
  return {
    name: "resend",
    async send(mail) {
      const response = await fetcher("https://api.resend.com/emails", {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          from: mail.from,
          to: [mail.to],
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          attachments: mail.attachments.map((file) => ({
            filename: file.filename,
            content: base64(file.content),
            content_type: file.contentType,
          })),
        }),
      });
      if (!response.ok) throw await providerError(response);
      const body = (await response.json()) as { id?: string };
      return { id: body.id ?? "" };
    },
  };
}

export function postmarkMailer(serverToken: string, fetcher: typeof fetch = fetch): Mailer {
  return {
    name: "postmark",
    async send(mail) {
      const response = await fetcher("https://api.postmarkapp.com/email", {
        method: "POST",
        headers: { "x-postmark-server-token": serverToken, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          From: mail.from,
          To: mail.to,
          Subject: mail.subject,
          HtmlBody: mail.html,
          TextBody: mail.text,
          MessageStream: "outbound",
          Attachments: mail.attachments.map((file) => ({
            Name: file.filename,
            Content: base64(file.content),
            ContentType: file.contentType,
          })),
        }),
      });
      const body = (await response.json().catch(() => ({}))) as { MessageID?: string; ErrorCode?: number; Message?: string };
      if (!response.ok || (body.ErrorCode ?? 0) !== 0)
        throw new Error(`HTTP ${response.status}: ${body.ErrorCode ?? ""} ${body.Message ?? ""}`);
      return { id: body.MessageID ?? "" };
    },
  };
}

/**
 * The mailer the configuration names, or null for the outbox alone. A sending transport without
 * what it needs is a configuration error.
 */
export function mailerFromEnv(env: AppEnv, fetcher: typeof fetch = fetch): Mailer | null {
  switch (env.MAIL_TRANSPORT) {
    case "outbox":
      return null;
    case "cloudflare":
      if (!env.SEND_EMAIL) throw new Error("MAIL_TRANSPORT=cloudflare needs a send_email binding named SEND_EMAIL");
      return cloudflareMailer(env.SEND_EMAIL);
    case "resend":
      if (!env.MAIL_API_KEY) throw new Error("MAIL_TRANSPORT=resend needs the MAIL_API_KEY secret");
      return resendMailer(env.MAIL_API_KEY, fetcher);
    case "postmark":
      if (!env.MAIL_API_KEY) throw new Error("MAIL_TRANSPORT=postmark needs the MAIL_API_KEY secret");
      return postmarkMailer(env.MAIL_API_KEY, fetcher);
  }
}
