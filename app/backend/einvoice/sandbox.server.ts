/**
 * The built-in e-invoice sandbox (decision 159): a provider behind the same interface as ECPay's
 * adapter, for the demo hotels and the tests, keeping what it issued in D1. It enforces ECPay's
 * rules (the items add up to the amount, the void cut-off, an allowance voided before its
 * invoice, an allowance no larger than what is left), issues numbers in the real format (2
 * uppercase letters and 8 digits, a 4-digit random number), answers the same invoice to the same
 * relate number, and can be told to fail (einvoice_sandbox_failures) so the retry path is tested.
 * Its remote checks know every well-formed code but the documented unknown ones (decision 166):
 * mobile barcodes starting `/NO` and donation codes starting `000`.
 * It registers two made-up company names (`SANDBOX_COMPANIES`, decision 168); other numbers are "no data".
 * Asked for an allowance by the buyer's consent (AllowanceByCollegiate, decision 167) it does what
 * ECPay does: it reserves the amount, emails the buyer a consent link valid 72 hours (through the
 * project's outbox, in the order's language, to a sandbox page: sandbox-consent.server.ts) and
 * posts the signed callback to the ReturnURL's path when the buyer agrees or refuses.
 * Like the test payment gateway it moves nothing real, so it runs only where that may run: local
 * hosts, or a staging site that opted in (decision 047).
 */
import { canVoid, taipeiDate } from "~/domain/einvoice/period";
import { CITIZEN_CERTIFICATE, isValidTaxId, LOVE_CODE, MOBILE_BARCODE } from "~/domain/einvoice/buyer";
import { itemsMismatch } from "~/backend/einvoice/ecpay.server";
import {
  failure,
  type AllowanceRequest,
  type EinvoiceProvider,
  type IssueLookup,
  type IssueRequest,
  type ProviderAnswer,
  type ProviderFailure,
} from "~/backend/einvoice/provider";
import { CONSENT_HOURS, type FailureKind } from "~/domain/einvoice/machine";
import { hmacSha256Hex } from "~/lib/crypto";

/** The sandbox's track letters: real in form, never a real track. */
export const SANDBOX_TRACK = "TS";

export class EinvoiceSandboxRefused extends Error {
  constructor() {
    super("the e-invoice sandbox issues nothing real: only on local hosts, or a staging site that set ALLOW_TEST_GATEWAY");
    this.name = "EinvoiceSandboxRefused";
  }
}

export interface SandboxEinvoiceDeps {
  db: D1Database;
  hotelId: number;
  /** Whether the test gateway may run here (BackendContext.testGateway): local hosts, or ALLOW_TEST_GATEWAY. */
  allowed: boolean;
  now?: () => Date;
}

interface SandboxInvoiceRow {
  id: number;
  relate_number: string;
  number: string | null;
  random_number: string;
  amount: number;
  status: "held" | "issued" | "voided" | "cancelled";
  issued_on: string;
}

type SandboxOp =
  | "issue"
  | "delayIssue"
  | "triggerIssue"
  | "cancelDelayIssue"
  | "invalid"
  | "allowance"
  | "allowanceByCollegiate"
  | "allowanceInvalid"
  | "getIssue"
  | "checkBarcode"
  | "checkLoveCode"
  | "companyName";

/**
 * The codes the sandbox's remote checks answer "does not exist" for (decision 166): a mobile barcode
 * starting `/NO` (`/NOSUCH1`), a donation code starting `000` (`0001`). Every other well-formed code exists.
 */
export const SANDBOX_UNKNOWN_BARCODE = /^\/NO/;
export const SANDBOX_UNKNOWN_LOVE_CODE = /^000/;

/**
 * The sandbox's registry of company names (GetCompanyNameByTaxID, decision 168): two 統一編號 of the
 * integrations notes' examples, registered to made-up names. Every other valid number is "no data".
 */
export const SANDBOX_COMPANIES: Readonly<Record<string, string>> = {
  "04595257": "範例旅行社股份有限公司",
  "10458575": "臺灣示範商務顧問有限公司",
};

/** How long a call asked to be "slow" waits before it answers: longer than any deadline a caller sets. */
export const SANDBOX_SLOW_MS = 5_000;

/** What a test may ask of the sandbox's next calls: a failure, an answer lost after the work, or a slow answer. */
export type SandboxPlan = FailureKind | "lost_answer" | "slow";

/** Asks a hotel's sandbox to fail its next `times` calls of `op` ("*": any) as `kind` (a test's hook). */
export async function failNextSandboxCalls(
  db: D1Database,
  hotelId: number,
  op: SandboxOp | "*",
  kind: SandboxPlan,
  times = 1,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO einvoice_sandbox_failures (hotel_id, op, kind, remaining) VALUES (?, ?, ?, ?)
       ON CONFLICT (hotel_id, op) DO UPDATE SET kind = excluded.kind, remaining = excluded.remaining`,
    )
    .bind(hotelId, op, kind, times)
    .run();
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * The keys the sandbox signs a hotel's consent callbacks with (the MD5 CheckMacValue ECPay's carry),
 * derived from the Worker's signing secret as the test gateway's are: never in a file or the database.
 */
export async function sandboxEinvoiceKeys(signingSecret: string, hotelId: number): Promise<{ hashKey: string; hashIv: string }> {
  const derived = await hmacSha256Hex(signingSecret, `einvoice-sandbox-consent:${hotelId}`);
  return { hashKey: derived.slice(0, 16), hashIv: derived.slice(16, 32) };
}

/** The guest's own emails about an order, as SQL: the consent email's link leads where theirs led. */
const GUEST_MAIL_KINDS = "'order_confirmation', 'paid_receipt', 'order_cancellation'";

function randomDigits(count: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(count));
  return [...bytes].map((byte) => String(byte % 10)).join("");
}

export function sandboxEinvoice(deps: SandboxEinvoiceDeps): EinvoiceProvider {
  if (!deps.allowed) throw new EinvoiceSandboxRefused();
  const { db, hotelId } = deps;
  const now = deps.now ?? (() => new Date());

  /** The failure a test asked for, taken once; "lost_answer": the call is made, its answer lost; "slow": it answers late. */
  async function planned(op: SandboxOp): Promise<SandboxPlan | null> {
    const row = await db
      .prepare(
        `UPDATE einvoice_sandbox_failures SET remaining = remaining - 1
         WHERE rowid = (SELECT rowid FROM einvoice_sandbox_failures WHERE hotel_id = ?1 AND op IN (?2, '*') AND remaining > 0 ORDER BY op = '*' LIMIT 1)
         RETURNING kind`,
      )
      .bind(hotelId, op)
      .first<{ kind: SandboxPlan }>();
    return row?.kind ?? null;
  }

  const asked = (kind: FailureKind, op: SandboxOp): ProviderFailure =>
    kind === "rate_limited"
      ? failure("rate_limited", "403", `${op}: HTTP 403 (sandbox, as asked): wait 30 minutes`)
      : kind === "unavailable"
        ? failure("unavailable", "503", `${op}: unavailable (sandbox, as asked)`)
        : failure("refused", "9999999", `${op}: refused (sandbox, as asked)`);

  /** Runs one call with the test hook around it. */
  async function run<T>(op: SandboxOp, work: () => Promise<ProviderAnswer<T>>): Promise<ProviderAnswer<T>> {
    const plan = await planned(op);
    if (plan === "slow") await new Promise((resolve) => setTimeout(resolve, SANDBOX_SLOW_MS));
    else if (plan && plan !== "lost_answer") return asked(plan, op);
    const answer = await work();
    return plan === "lost_answer" ? failure("unavailable", "", `${op}: the answer was lost (sandbox, as asked)`) : answer;
  }

  const byRelate = (relateNumber: string) =>
    db
      .prepare("SELECT * FROM einvoice_sandbox_invoices WHERE hotel_id = ? AND relate_number = ?")
      .bind(hotelId, relateNumber)
      .first<SandboxInvoiceRow>();
  const byNumber = (number: string) =>
    db
      .prepare("SELECT * FROM einvoice_sandbox_invoices WHERE hotel_id = ? AND number = ?")
      .bind(hotelId, number)
      .first<SandboxInvoiceRow>();

  /** Numbers the invoice of row `id`: the track letters, then the row id in 8 digits; a random 4-digit number. */
  async function numberIt(id: number): Promise<{ number: string; randomNumber: string; issuedOn: string }> {
    const number = `${SANDBOX_TRACK}${pad(id % 100_000_000, 8)}`;
    const randomNumber = randomDigits(4);
    const issuedOn = taipeiDate(now());
    await db
      .prepare(
        "UPDATE einvoice_sandbox_invoices SET number = ?, random_number = ?, issued_on = ?, status = 'issued' WHERE id = ? AND status = 'held'",
      )
      .bind(number, randomNumber, issuedOn, id)
      .run();
    const row = await db.prepare("SELECT * FROM einvoice_sandbox_invoices WHERE id = ?").bind(id).first<SandboxInvoiceRow>();
    return { number: row?.number ?? number, randomNumber: row?.random_number ?? randomNumber, issuedOn: row?.issued_on ?? issuedOn };
  }

  /** Records a request as held (DelayIssue) or to issue; the same relate number answers what it first made. */
  async function take(request: IssueRequest, op: "issue" | "delayIssue"): Promise<ProviderAnswer<SandboxInvoiceRow>> {
    const mismatch = itemsMismatch(request.items, request.amount);
    if (mismatch) return failure("refused", "1200031", `${op}: ${mismatch}`);
    if (!/^[A-Za-z0-9]{1,30}$/.test(request.relateNumber))
      return failure("refused", "1200001", `${op}: RelateNumber must be 1-30 letters and digits`);
    await db
      .prepare(
        `INSERT INTO einvoice_sandbox_invoices (hotel_id, relate_number, amount, items, buyer, status) VALUES (?, ?, ?, ?, ?, 'held')
         ON CONFLICT (hotel_id, relate_number) DO NOTHING`,
      )
      .bind(hotelId, request.relateNumber, request.amount, JSON.stringify(request.items), JSON.stringify(request.buyer))
      .run();
    const row = await byRelate(request.relateNumber);
    if (!row) return failure("unavailable", "", `${op}: not stored`);
    if (row.amount !== request.amount)
      return failure("refused", "1200002", `${op}: RelateNumber ${request.relateNumber} already used for another amount`);
    return { ok: true, value: row };
  }

  /** What an invoice still counts for: less its allowances made, and those awaiting consent (their amount is reserved until the link lapses). */
  async function remainingOf(number: string, amount: number): Promise<number> {
    const row = await db
      .prepare(
        `SELECT COALESCE(SUM(amount), 0) AS allowed FROM einvoice_sandbox_allowances
         WHERE hotel_id = ? AND invoice_number = ? AND (status = 'issued' OR (status = 'awaiting' AND expires_at > ?))`,
      )
      .bind(hotelId, number, now().toISOString())
      .first<{ allowed: number }>();
    return amount - (row?.allowed ?? 0);
  }

  /** ECPay's refusals of an allowance, checked before one is made or asked; the amount left before it. */
  async function allowable(op: SandboxOp, request: AllowanceRequest): Promise<ProviderAnswer<{ left: number }>> {
    const mismatch = itemsMismatch(request.items, request.amount);
    if (mismatch) return failure("refused", "local", `${op}: ${mismatch}`);
    const invoice = await byNumber(request.number);
    if (!invoice || invoice.status !== "issued") return failure("refused", "2000013", `${op}: no issued invoice ${request.number}`);
    if (invoice.issued_on !== request.issuedOn)
      return failure("refused", "2000014", `${op}: invoice ${request.number} was not issued on ${request.issuedOn}`);
    const left = await remainingOf(invoice.number ?? "", invoice.amount);
    if (request.amount <= 0 || request.amount > left)
      return failure("refused", "2000015", `${op}: ${request.amount} is more than the ${left} left`);
    return { ok: true, value: { left } };
  }

  /** An allowance number as ECPay's look: the Taipei time to the second (12 digits) and 4 more. */
  const allowanceNumberSql = "?2 || printf('%04d', (SELECT COUNT(*) FROM einvoice_sandbox_allowances) % 10000)";
  const taipeiStamp = () => new Date(now().getTime() + 8 * 3_600_000).toISOString().replace(/\D/g, "").slice(2, 14);

  async function makeAllowance(op: SandboxOp, request: AllowanceRequest) {
    return run(op, async () => {
      const checked = await allowable(op, request);
      if (!checked.ok) return checked;
      const inserted = await db
        .prepare(
          `INSERT INTO einvoice_sandbox_allowances (hotel_id, number, invoice_number, amount, status)
           VALUES (?1, ${allowanceNumberSql}, ?3, ?4, 'issued') RETURNING number`,
        )
        .bind(hotelId, taipeiStamp(), request.number, request.amount)
        .first<{ number: string }>();
      return { ok: true as const, value: { allowanceNumber: inserted?.number ?? "", remaining: checked.value.left - request.amount } };
    });
  }

  /**
   * AllowanceByCollegiate as ECPay answers it: the allowance number at once, its amount reserved, and
   * the buyer emailed a consent link valid 72 hours (the outbox's `einvoice_consent`, in the order's
   * language, its link where the guest's own emails of the order led); made only when they agree.
   */
  function askConsent(request: AllowanceRequest & { returnUrl: string }) {
    return run("allowanceByCollegiate", async () => {
      const checked = await allowable("allowanceByCollegiate", request);
      if (!checked.ok) return checked;
      const token = [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
      const expiresAt = new Date(now().getTime() + CONSENT_HOURS * 3_600_000).toISOString();
      // The order the invoice is of (its relate number), for the email's language and links.
      const order = `(SELECT o.id FROM einvoice_sandbox_invoices si JOIN einvoice_documents d ON d.relate_number = si.relate_number
                       JOIN orders o ON o.id = d.order_id AND o.hotel_id = si.hotel_id WHERE si.hotel_id = ?1 AND si.number = ?3)`;
      const [inserted] = await db.batch<{ number: string }>([
        db
          .prepare(
            `INSERT INTO einvoice_sandbox_allowances (hotel_id, number, invoice_number, amount, status, token, return_url, expires_at, lang)
             VALUES (?1, ${allowanceNumberSql}, ?3, ?4, 'awaiting', ?5, ?6, ?7, COALESCE((SELECT lang FROM orders WHERE id = ${order}), 'zh-TW'))
             RETURNING number`,
          )
          .bind(hotelId, taipeiStamp(), request.number, request.amount, token, request.returnUrl.slice(0, 200), expiresAt),
        db
          .prepare(
            `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin, product, about)
             SELECT o.hotel_id, o.id, 'einvoice_consent', o.lang, ?2,
               COALESCE((SELECT m.site_origin FROM mail_outbox m WHERE m.order_id = o.id AND m.kind IN (${GUEST_MAIL_KINDS}) ORDER BY m.id DESC LIMIT 1), 'https://' || h.domain),
               COALESCE((SELECT m.product FROM mail_outbox m WHERE m.order_id = o.id AND m.kind IN (${GUEST_MAIL_KINDS}) ORDER BY m.id DESC LIMIT 1), 'hxa'),
               ?4
             FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE o.id = ${order.replace("?3", "?5")} AND ?2 != ''`,
          )
          .bind(hotelId, request.email, "", token, request.number),
      ]);
      const number = inserted?.results[0]?.number ?? "";
      return { ok: true as const, value: { allowanceNumber: number, remaining: checked.value.left - request.amount, expiresAt } };
    });
  }

  return {
    name: "sandbox",
    issue(request) {
      return run("issue", async () => {
        const taken = await take(request, "issue");
        if (!taken.ok) return taken;
        const row = taken.value;
        if (row.status === "cancelled") return failure("refused", "1200002", `issue: RelateNumber ${request.relateNumber} was withdrawn`);
        if (row.status === "issued" || row.status === "voided") {
          return { ok: true, value: { number: row.number ?? "", randomNumber: row.random_number, issuedOn: row.issued_on } };
        }
        return { ok: true, value: await numberIt(row.id) };
      });
    },
    delayIssue(request) {
      return run("delayIssue", async () => {
        const taken = await take(request, "delayIssue");
        if (!taken.ok) return taken;
        if (taken.value.status !== "held")
          return failure("refused", "1200002", `delayIssue: RelateNumber ${request.relateNumber} already ${taken.value.status}`);
        return { ok: true, value: { held: true } };
      });
    },
    triggerIssue(relateNumber) {
      return run("triggerIssue", async () => {
        const row = await byRelate(relateNumber);
        if (!row) return failure("refused", "1600003", `triggerIssue: no invoice held for ${relateNumber}`);
        if (row.status === "issued")
          return { ok: true, value: { number: row.number ?? "", randomNumber: row.random_number, issuedOn: row.issued_on } };
        if (row.status !== "held") return failure("refused", "4000003", `triggerIssue: ${relateNumber} is ${row.status}`);
        return { ok: true, value: await numberIt(row.id) };
      });
    },
    cancelDelayIssue(relateNumber) {
      return run("cancelDelayIssue", async () => {
        const row = await byRelate(relateNumber);
        if (!row) return failure("refused", "1600003", `cancelDelayIssue: nothing held for ${relateNumber}`);
        if (row.status === "cancelled") return { ok: true, value: { cancelled: true } };
        if (row.status !== "held") return failure("refused", "4000003", `cancelDelayIssue: ${relateNumber} is already ${row.status}`);
        await db.prepare("UPDATE einvoice_sandbox_invoices SET status = 'cancelled' WHERE id = ? AND status = 'held'").bind(row.id).run();
        return { ok: true, value: { cancelled: true } };
      });
    },
    invalid(request) {
      return run("invalid", async () => {
        const row = await byNumber(request.number);
        if (!row || row.issued_on !== request.issuedOn)
          return failure("refused", "1600003", `invalid: no invoice ${request.number} of ${request.issuedOn}`);
        if (row.status === "voided") return { ok: true, value: { number: request.number } };
        // ECPay refuses after 23:59:59 on the 13th of the next odd month (Taipei).
        if (!canVoid(row.issued_on, now()))
          return failure("refused", "5070453", `invalid: ${request.number}'s period is closed: an allowance is needed`);
        if ((await remainingOf(request.number, row.amount)) !== row.amount) {
          return failure("refused", "5070451", `invalid: ${request.number} has allowances: void them first`);
        }
        await db.prepare("UPDATE einvoice_sandbox_invoices SET status = 'voided' WHERE id = ? AND status = 'issued'").bind(row.id).run();
        return { ok: true, value: { number: request.number } };
      });
    },
    allowance(request) {
      return makeAllowance("allowance", request);
    },
    // ECPay's stage environment sends no consent mail; the sandbox does, as production would (decision 167).
    allowanceByCollegiate(request) {
      return askConsent(request);
    },
    allowanceInvalid(request) {
      return run("allowanceInvalid", async () => {
        const row = await db
          .prepare("SELECT status FROM einvoice_sandbox_allowances WHERE hotel_id = ? AND number = ? AND invoice_number = ?")
          .bind(hotelId, request.allowanceNumber, request.number)
          .first<{ status: string }>();
        if (!row) return failure("refused", "1600003", `allowanceInvalid: no allowance ${request.allowanceNumber} of ${request.number}`);
        await db
          .prepare("UPDATE einvoice_sandbox_allowances SET status = 'voided' WHERE hotel_id = ? AND number = ?")
          .bind(hotelId, request.allowanceNumber)
          .run();
        return { ok: true, value: { number: request.number } };
      });
    },
    getIssue(relateNumber) {
      return run<IssueLookup>("getIssue", async () => {
        const row = await byRelate(relateNumber);
        if (!row || row.status === "cancelled") return { ok: true, value: { found: false } };
        if (row.status === "held") return { ok: true, value: { found: true, delayed: true } };
        return {
          ok: true,
          value: {
            found: true,
            delayed: false,
            invoice: { number: row.number ?? "", randomNumber: row.random_number, issuedOn: row.issued_on },
            amount: row.amount,
            voided: row.status === "voided",
          },
        };
      });
    },
    checkBarcode(code) {
      return run("checkBarcode", async () => ({
        ok: true,
        value: { exists: (MOBILE_BARCODE.test(code) && !SANDBOX_UNKNOWN_BARCODE.test(code)) || CITIZEN_CERTIFICATE.test(code) },
      }));
    },
    checkLoveCode(code) {
      return run("checkLoveCode", async () => ({
        ok: true,
        value: { exists: LOVE_CODE.test(code) && !SANDBOX_UNKNOWN_LOVE_CODE.test(code) },
      }));
    },
    companyName(taxId) {
      return run("companyName", async () =>
        isValidTaxId(taxId)
          ? { ok: true, value: { name: SANDBOX_COMPANIES[taxId] ?? null } }
          : failure("refused", "1200125", `companyName: RtnCode 1200125 統一編號檢查碼驗證失敗 (sandbox)`),
      );
    },
  };
}
