import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateHotelFile } from "~/backend/hotels/hotel-file";
import { hotelFileToSql, sqlLiteral } from "~/backend/hotels/hotel-sql";

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));

describe("hotel file", () => {
  it("accepts the minimal fixture and every demo hotel", () => {
    expect(validateHotelFile(read("../fixtures/minimal-hotel.json"))).toMatchObject({ success: true });
    const demo = readdirSync(new URL("../../demo/hotels/", import.meta.url)).filter((name) => name.endsWith(".json"));
    // The eight demo hotels of the README.
    expect(demo.sort()).toEqual([
      "camp.json",
      "closed.json",
      "external.json",
      "lakeside.json",
      "maintain.json",
      "nosite.json",
      "soon.json",
      "taipei.json",
    ]);
    for (const name of demo) {
      const result = validateHotelFile(read(`../../demo/hotels/${name}`));
      expect(result.success ? [] : result.errors, name).toEqual([]);
    }
  });

  it("names each bad field", () => {
    const result = validateHotelFile(read("../fixtures/malformed-hotel.json"));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toContain("hotel.email: must be an email address");
    expect(result.errors).toContain("room_classes.0.people: a room sleeps at least one adult");
  });

  it.each([
    [{ hotel: { main_lang: "fr-FR" } }, "hotel.main_lang"],
    [{ hotel: { support_lang: ["en-US"] } }, "hotel.main_lang: main_lang must be one of support_lang"],
    [{ hotel: { kind: 18 } }, "hotel.kind"],
    [{ hotel: { domain: "not a domain" } }, "hotel.domain"],
    [
      {
        rate_plans: [{ rate_plan_code: "X", name: { "zh-TW": "x" }, rooms: [{ room_code: "ghost", weekday: 1, weekend: 1, holiday: 1 }] }],
      },
      "rate_plans: names a room_code",
    ],
    [{ inventory: { sold_out: [{ room_code: "double", nights: ["tomorrow"] }] } }, "inventory.sold_out.0.nights.0"],
    // The hotel's own emails (decision 150): addresses, one to ten.
    [{ hotel: { reservation_emails: ["desk@hotel.example", "not-an-email"] } }, "hotel.reservation_emails.1: must be an email address"],
    [{ hotel: { reservation_emails: [] } }, "hotel.reservation_emails"],
    // Payments (docs/decisions/031, 032): vendor ids of spec §4, known protocols, secret NAMES only.
    [{ hotel: { payment_list: [{ vendor_id: 5, method: "credit" }] } }, "hotel.payment_list.0.vendor_id: must be a vendor id of spec §4"],
    [{ hotel: { payment_gateways: [{ vendor_id: 6, provider: "paypal" }] } }, "hotel.payment_gateways.0.provider"],
    [
      { hotel: { payment_gateways: [{ vendor_id: 6, provider: "ecpay_aio", secrets: { hash_key: "SESSION_SECRET" } }] } },
      "hotel.payment_gateways.0.secrets.hash_key: must be the NAME of a Worker secret starting with PAY_",
    ],
    [
      { hotel: { payment_gateways: [{ vendor_id: 6, provider: "ecpay_aio", secrets: { hash_key: "pwFHCqoQZGmho4w6" } }] } },
      "hotel.payment_gateways.0.secrets.hash_key",
    ],
    [{ hotel: { payment_deadlines: { online_minutes: 1 } } }, "hotel.payment_deadlines.online_minutes"],
    // The standard contract (decision 040): a deposit of at most 30 %, and a hotel's own refunds never below the contract's.
    [
      { hotel: { deposit_type: "deposit", deposit_percent: 31 } },
      'hotel.deposit_percent: must be at most 30 when deposit_type is "deposit"',
    ],
    [
      {
        hotel: {
          refund_ladder: [
            { days_before: 7, percent: 100 },
            { days_before: 3, percent: 70 },
            { days_before: 1, percent: 50 },
            { days_before: 0, percent: 0 },
          ],
        },
      },
      "hotel.refund_ladder: gives back 70 % 6 days before check-in, less than the standard contract's 100 % for room price paid in advance",
    ],
    [
      {
        hotel: {
          refund_ladder: [
            { days_before: 3, percent: 100 },
            { days_before: 1, percent: 49 },
          ],
        },
      },
      "hotel.refund_ladder: gives back 49 % 2 days before check-in, less than the standard contract's 50 % for room price paid in advance",
    ],
    // Members' names by the rule of every entry that takes a name (decision 052).
    [
      { members: [{ email: "a@example.com", first_name: "Mei", last_name: "Lin\u202E" }] },
      "members.0.last_name: must not contain control or bidirectional control characters",
    ],
    [
      { members: [{ email: "a@example.com", first_name: "Mei\r\nBcc: x", last_name: "Lin" }] },
      "members.0.first_name: must not contain control or bidirectional control characters",
    ],
  ])("rejects %j naming %s", (change, expected) => {
    const file = read("../fixtures/minimal-hotel.json");
    for (const [key, value] of Object.entries(change)) {
      file[key] = key === "hotel" ? { ...file.hotel, ...(value as object) } : value;
    }
    const result = validateHotelFile(file);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.errors.join("\n")).toContain(expected);
  });

  // Issue 25 item 16: plain text is decoded where it arrives; HTML stays HTML until it is read as text.
  it("decodes character references in plain text (names, titles, addresses) and keeps HTML as written", () => {
    const file = read("../fixtures/minimal-hotel.json");
    file.hotel = {
      ...file.hotel,
      hotel_name: { "en-US": "Caf&eacute; Lodge&nbsp;&#8212; Lake&hellip;" },
      address: { "en-US": "1 Rue de l&#39;&Eacute;glise" },
      introduction: { "en-US": "<p>Caf&eacute; &amp;amp;</p>" },
    };
    file.room_classes[0].name = { "en-US": "Suite &amp; Spa" };
    const result = validateHotelFile(file);
    if (!result.success) throw new Error(result.errors.join("; "));
    expect(result.file.hotel.hotel_name["en-US"]).toBe("Café Lodge\u00a0— Lake…");
    expect(result.file.hotel.address["en-US"]).toBe("1 Rue de l'Église");
    expect(result.file.room_classes[0]!.name["en-US"]).toBe("Suite & Spa");
    expect(result.file.hotel.introduction["en-US"]).toBe("<p>Caf&eacute; &amp;amp;</p>");
  });

  it.each([
    [{ deposit_type: "deposit", deposit_percent: 30 }],
    [{ deposit_type: "all", deposit_percent: 100 }],
    [
      {
        refund_ladder: [
          { days_before: 3, percent: 100 },
          { days_before: 1, percent: 50 },
          { days_before: 0, percent: 0 },
        ],
      },
    ],
    [
      {
        deposit_type: "deposit",
        deposit_percent: 20,
        refund_ladder: [
          { days_before: 3, percent: 100 },
          { days_before: 1, percent: 70 },
          { days_before: 0, percent: 10 },
        ],
      },
    ],
  ])("accepts deposit terms and a refund schedule at least as generous as the standard contract: %j", (change) => {
    const file = read("../fixtures/minimal-hotel.json");
    file.hotel = { ...file.hotel, ...change };
    expect(validateHotelFile(file)).toMatchObject({ success: true });
  });

  it.each(["/room", "/rooms", "/nope", "//evil.com", "/\\evil.com", "javascript:alert(1)", "/event?id=abc", "room/1"])(
    "refuses a banner linking to %s, a page no route serves, naming the field",
    (link) => {
      const file = read("../fixtures/minimal-hotel.json");
      const banner = { image: { src: "/a.jpg", width: 10, height: 10 }, link };
      file.hotel = { ...file.hotel, banners: [{ ...banner, link: "" }, banner] };
      const result = validateHotelFile(file);
      expect(result.success).toBe(false);
      if (!result.success)
        expect(result.errors.join("\n")).toContain("hotel.banners.1.link: must be a full http(s) URL or a page of the site");
    },
  );

  it.each([
    "",
    "/",
    "/#rooms",
    "/about",
    "/en-US/facilities",
    "/event",
    "/event?id=12",
    "/news",
    "/booking?adults=2",
    "/room/3",
    "https://hotel.example/x",
  ])("accepts a banner linking to %j", (link) => {
    const file = read("../fixtures/minimal-hotel.json");
    file.hotel = { ...file.hotel, banners: [{ image: { src: "/a.jpg", width: 10, height: 10 }, link }] };
    expect(validateHotelFile(file)).toMatchObject({ success: true });
  });

  it("sends the hotel's own emails to its email unless the file lists reservation addresses (lowercased, each once)", () => {
    const sqlOf = (hotel: Record<string, unknown>) => {
      const file = read("../fixtures/minimal-hotel.json") as { hotel: Record<string, unknown> };
      const result = validateHotelFile({ ...file, hotel: { ...file.hotel, ...hotel } });
      if (!result.success) throw new Error(result.errors.join());
      return hotelFileToSql(result.file, { loadDay: "2030-01-01" }).join("\n");
    };
    expect(sqlOf({})).toContain(sqlLiteral(JSON.stringify(["stay@fixture.example"])));
    expect(sqlOf({ reservation_emails: ["Desk@Fixture.example", "desk@fixture.example", "owner@fixture.example"] })).toContain(
      sqlLiteral(JSON.stringify(["desk@fixture.example", "owner@fixture.example"])),
    );
  });

  it("expands inventory night by night with weekend, holiday and sold-out nights", () => {
    const result = validateHotelFile({
      ...read("../fixtures/minimal-hotel.json"),
      inventory: { months: 1, holidays: ["2030-01-02"], sold_out: [{ room_code: "double", nights: ["today+1"] }] },
    });
    if (!result.success) throw new Error(result.errors.join());
    const sql = hotelFileToSql(result.file, { loadDay: "2030-01-01" }).join("\n");
    // Each row ends with its stay rules (closed, min_stay, max_stay, no_arrival, no_departure): none here.
    expect(sql).toContain("('2030-01-01', 3, 0, NULL, NULL, 0, 0)"); // Tuesday: all 3 rooms
    expect(sql).toContain("('2030-01-02', 0, 0, NULL, NULL, 0, 0)"); // today+1: sold out
    expect(sql).toContain("('2030-01-01', 3000, 2700, NULL, 0, NULL, NULL, 0, 0)"); // weekday, member 90%
    expect(sql).toContain("('2030-01-02', 4200, 3780, NULL, 0, NULL, NULL, 0, 0)"); // holiday
    expect(sql).toContain("('2030-01-04', 3600, 3240, NULL, 0, NULL, NULL, 0, 0)"); // Friday night: weekend
    expect(sql).not.toContain("'2030-02-01'"); // one month: the last night is 2030-01-31
  });

  const breakfast = {
    code: "breakfast",
    name: { "en-US": "Breakfast" },
    unit: "person_night",
    price: 400,
    child_price: 200,
    max_per_booking: 8,
    plans: ["PLAN_CODE"],
  };

  it("declares add-on items and loads a limited item's inventory day by day (issue 27)", () => {
    const fixture = read("../fixtures/minimal-hotel.json");
    const plan = fixture.rate_plans[0].rate_plan_code;
    const result = validateHotelFile({
      ...fixture,
      inventory: { months: 1 },
      addons: [
        { ...breakfast, plans: [plan] },
        {
          code: "parking",
          name: { "en-US": "Parking" },
          unit: "night",
          price: 300,
          max_per_booking: 2,
          plans: [plan],
          inventory: { per_day: 10, days: [{ days: ["today+1"], count: 4 }] },
        },
      ],
    });
    if (!result.success) throw new Error(result.errors.join());
    const sql = hotelFileToSql(result.file, { loadDay: "2030-01-01" }).join("\n");
    expect(sql).toContain("INSERT INTO addons");
    expect(sql).toContain("'person_night', 400, 200, 8, 0, 1)");
    expect(sql).toContain("INSERT INTO addon_plans");
    expect(sql).toContain("('2030-01-01', 10)");
    expect(sql).toContain("('2030-01-02', 4)");
  });

  it.each([
    [{ plans: ["NOPE"] }, "addons: names a plan that is not among rate_plans"],
    [{ unit: "night" }, "addons: child_price is for items counted per person (person, person_night)"],
    [{ unit: "hour" }, "addons.0.unit: must be stay, night, person or person_night"],
    [{ max_per_booking: 0 }, "addons.0.max_per_booking"],
    [{ photo: "//evil.example/x.jpg" }, "addons.0.photo: must be a path starting with / or an https URL"],
  ])("refuses an add-on item with %j", (change, error) => {
    const fixture = read("../fixtures/minimal-hotel.json");
    const result = validateHotelFile({ ...fixture, addons: [{ ...breakfast, plans: [fixture.rate_plans[0].rate_plan_code], ...change }] });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.errors.join("\n")).toContain(error);
  });

  it("moves the hotel's content version first and last, so nothing read during an import is kept as the old version (decision 046)", () => {
    const result = validateHotelFile(read("../fixtures/minimal-hotel.json"));
    if (!result.success) throw new Error(result.errors.join());
    const sql = hotelFileToSql(result.file, { loadDay: "2030-01-01" });
    const bump = /^UPDATE hotels SET content_version = content_version \+ 1 WHERE domain = '[^']+';$/;
    expect(sql[0]).toMatch(bump);
    expect(sql[sql.length - 1]).toMatch(bump);
    expect(sql.filter((statement) => bump.test(statement))).toHaveLength(2);
  });

  it("escapes text in SQL", () => {
    expect(sqlLiteral("O'Hara")).toBe("'O''Hara'");
    expect(sqlLiteral(null)).toBe("NULL");
    expect(sqlLiteral(true)).toBe("1");
  });
});

describe("npm run hotel:import", () => {
  it("refuses a malformed hotel file, naming the field, and loads nothing", () => {
    const result = spawnSync(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/hotel-import.ts", "test/fixtures/malformed-hotel.json"],
      {
        encoding: "utf8",
        env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("hotel.email: must be an email address");
    expect(result.stderr).toContain("room_classes.0.people");
    expect(result.stderr).toContain("nothing was loaded");
  });
});

describe("the desk's first owner", () => {
  const withOwner = (domain: string, owner: Record<string, string>) => {
    const file = read("../fixtures/minimal-hotel.json") as { hotel: { domain: string }; desk?: unknown };
    file.hotel.domain = domain;
    file.desk = { owner };
    return file;
  };
  const demo = { email: "owner@portico.example", demo_password: "portico-desk-1", demo_totp_secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" };

  it("takes known sign-in secrets on a local demo domain only", () => {
    expect(validateHotelFile(withOwner("demo.localhost", demo))).toMatchObject({ success: true });
    expect(validateHotelFile(withOwner("hotel.example.com", demo))).toEqual({
      success: false,
      errors: [
        "desk.owner.demo_password: known sign-in secrets are only for demo hotels on local domains (*.localhost)",
        "desk.owner.demo_totp_secret: known sign-in secrets are only for demo hotels on local domains (*.localhost)",
      ],
    });
    expect(validateHotelFile(withOwner("hotel.example.com", { email: "owner@hotel.example.com" }))).toMatchObject({ success: true });
    expect(validateHotelFile(withOwner("demo.localhost", { ...demo, demo_totp_secret: "not base32!" }))).toMatchObject({ success: false });
  });
});
