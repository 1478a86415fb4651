/**
 * Prices of an order (spec §3 Price detail, §5, §6). Pure: the caller supplies prices from the
 * database; nothing here trusts a price from the browser.
 */

/** The members-only code (spec §6, §9). */
export const MEMBER_PROMOTION_CODE = "Memberpromotion";

/** Effective price (spec §5): the member price when logged in, the plan allows it and one exists. */
export function effectivePrice(
  plan: { price: number; member_price: number | null; allow_member_price: boolean },
  loggedIn: boolean,
): number {
  if (loggedIn && plan.allow_member_price && plan.member_price !== null) return plan.member_price;
  return plan.price;
}

/**
 * The standard accommodation contract (Taiwan tourism administration): a deposit may not exceed 30 %
 * of the agreed total room price (定金不得逾約定總房價百分之三十). A hotel asking more is held to it.
 */
export const DEPOSIT_CAP_PERCENT = 30;

/** The deposit percent a hotel may ask: its own, at most the contract's cap. */
export function depositPercentOf(hotelPercent: number): number {
  return Math.max(0, Math.min(hotelPercent, DEPOSIT_CAP_PERCENT));
}

/** The deposit on `total`: the hotel's percent rounded up, never past the contract's cap rounded down (decision 040). */
export function depositOf(total: number, hotelPercent: number): number {
  return Math.min(Math.ceil((total * depositPercentOf(hotelPercent)) / 100), Math.floor((total * DEPOSIT_CAP_PERCENT) / 100));
}

export interface PricedLine {
  /** Whole stay, one room, normal price. */
  price: number;
  /** Whole stay, one room, member price, if the plan has one. */
  member_price: number | null;
  allow_member_price: boolean;
  allow_coupon: boolean;
  num: number;
}

export type Discount =
  | { kind: "none" }
  | { kind: "percent"; code: string; percent: number; minAmount?: number }
  | { kind: "amount"; code: string; amount: number; minAmount?: number };

export interface PriceInput {
  lines: PricedLine[];
  loggedIn: boolean;
  discount: Discount;
  /** Points to use (1 point = 1 TWD). */
  points: number;
  /** Points the member holds. */
  pointsHeld: number;
  depositType: "all" | "deposit";
  depositPercent: number;
  payOption: "all" | "part";
  /** Add-on items (attachments), already priced. */
  attachmentAmount: number;
}

export type PriceProblem =
  | "points_negative"
  | "points_exceed_balance"
  | "points_exceed_amount"
  | "coupon_not_applicable"
  | "coupon_member_not_applicable"
  | "coupon_min_amount"
  | "deposit_not_available";

/**
 * The amounts of a price: what the pure rule computes. The API's price detail (hotel-api/schemas.ts
 * PriceDetail, spec §3) is these amounts with the lines and the hotel's deposit terms.
 */
export interface PriceAmounts {
  /** Sum of normal prices. */
  original_amount: number;
  /** Sum of effective prices (member prices where they apply). */
  room_price: number;
  /** Deducted by the coupon or the members-only code. */
  promotion_discount: number;
  point_used: number;
  attachment_amount: number;
  /** What the stay costs after every deduction. */
  total_price: number;
  /** Deposit due when paying part (deposit hotels), 0 otherwise. */
  deposit_amount: number;
  /** What the guest pays now. */
  pay_amount: number;
}

export type PriceResult = { ok: true; detail: PriceAmounts } | { ok: false; problem: PriceProblem; params?: Record<string, number> };

export function calculatePrice(input: PriceInput): PriceResult {
  const original = input.lines.reduce((sum, line) => sum + line.price * line.num, 0);
  const roomPrice = input.lines.reduce((sum, line) => sum + effectivePrice(line, input.loggedIn) * line.num, 0);
  const eligible = input.lines
    .filter((line) => line.allow_coupon)
    .reduce((sum, line) => sum + effectivePrice(line, input.loggedIn) * line.num, 0);

  let discount = 0;
  if (input.discount.kind !== "none") {
    // The members-only code is no coupon: a refusal says which of the two was refused (issue 25 item 17).
    if (eligible === 0)
      return {
        ok: false,
        problem: input.discount.code === MEMBER_PROMOTION_CODE ? "coupon_member_not_applicable" : "coupon_not_applicable",
      };
    const minAmount = input.discount.minAmount ?? 0;
    if (eligible < minAmount) return { ok: false, problem: "coupon_min_amount", params: { amount: minAmount } };
    discount =
      input.discount.kind === "percent" ? Math.floor((eligible * input.discount.percent) / 100) : Math.min(input.discount.amount, eligible);
  }

  if (!Number.isInteger(input.points) || input.points < 0) return { ok: false, problem: "points_negative" };
  if (input.points > input.pointsHeld) return { ok: false, problem: "points_exceed_balance", params: { points: input.pointsHeld } };
  const afterDiscount = roomPrice - discount;
  if (input.points > afterDiscount) return { ok: false, problem: "points_exceed_amount" };

  const total = afterDiscount - input.points + input.attachmentAmount;
  if (input.payOption === "part" && input.depositType !== "deposit") return { ok: false, problem: "deposit_not_available" };
  // Rounded up to the hotel's percent, but never past the standard contract's cap (30 % rounded down; decision 040).
  const deposit = input.depositType === "deposit" ? depositOf(total, input.depositPercent) : 0;
  return {
    ok: true,
    detail: {
      original_amount: original,
      room_price: roomPrice,
      promotion_discount: discount,
      point_used: input.points,
      attachment_amount: input.attachmentAmount,
      total_price: total,
      deposit_amount: deposit,
      pay_amount: input.payOption === "part" ? deposit : total,
    },
  };
}

/** The members-only code's percent off: 100 minus the hotel's member discount (spec §6). */
export function memberPromotionPercent(memberDiscountPercent: number): number {
  return Math.max(0, Math.min(100, 100 - memberDiscountPercent));
}
