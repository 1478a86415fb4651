/**
 * The two readers every route's raw input goes through (decision 060): the Cookie header and a
 * posted form. Whatever a browser, a sibling subdomain or an attacker sends, they answer a value or
 * "absent", never a throw.
 */
import { describe, expect, it } from "vitest";
import { readCookie } from "~/lib/cookie-header";
import { MAX_FORM_BYTES, readForm } from "~/platform/forms.server";

describe("readCookie", () => {
  it.each([
    ["d1_bookmark=abc", "abc"],
    ["a=1; d1_bookmark=00000000-00000001; b=2", "00000000-00000001"],
    ["  d1_bookmark = spaced ;", "spaced"],
    ['d1_bookmark="quoted"', "quoted"],
    ["d1_bookmark=a%20b", "a b"],
    ["d1_bookmark=a=b=c", "a=b=c"],
    ["d1_bookmark=first; d1_bookmark=second", "first"],
    ["d1_bookmark=", ""],
  ])("%j → %j", (header, value) => {
    expect(readCookie(header, "d1_bookmark")).toBe(value);
  });

  it.each([
    ["no header", null],
    ["another cookie only", "x_d1_bookmark=1; d1_bookmarks=2"],
    ["a lone %", "d1_bookmark=%"],
    ["a cut multi-byte escape", "d1_bookmark=%E0%A4%A"],
    ["an escape of no UTF-8", "d1_bookmark=%FF"],
    ["a name without a value", "d1_bookmark"],
  ])("%s → absent", (_, header) => {
    expect(readCookie(header, "d1_bookmark")).toBeNull();
  });

  it("an undecodable first cookie hides no second one: it reads as absent, as a browser sent it first", () => {
    expect(readCookie("d1_bookmark=%; d1_bookmark=ok", "d1_bookmark")).toBeNull();
  });
});

const post = (body: BodyInit | null, type?: string, headers: Record<string, string> = {}) =>
  new Request("https://hotel.example/en-US/hxa/checkout", {
    method: "POST",
    body,
    headers: { ...(type ? { "content-type": type } : {}), ...headers },
  });

describe("readForm", () => {
  it("reads a urlencoded form and a multipart one", async () => {
    expect((await readForm(post("csrf=a&intent=order", "application/x-www-form-urlencoded")))?.get("intent")).toBe("order");
    const multipart = new FormData();
    multipart.set("intent", "price");
    expect((await readForm(new Request("https://hotel.example/", { method: "POST", body: multipart })))?.get("intent")).toBe("price");
  });

  it("keeps what the fields hold (their rules are the form's schema's)", async () => {
    expect(
      (await readForm(post(new URLSearchParams({ name: "Mei\u0000\r\n\u202E" }), "application/x-www-form-urlencoded")))?.get("name"),
    ).toBe("Mei\u0000\r\n\u202E");
  });

  it.each([
    ["an empty body, no Content-Type", post(null)],
    ["an empty urlencoded body", post("", "application/x-www-form-urlencoded")],
    ["JSON", post('{"csrf":"a"}', "application/json")],
    ["text/plain", post("csrf=a", "text/plain")],
    [
      "multipart with another boundary than it declares",
      post('--sent\r\nContent-Disposition: form-data; name="csrf"\r\n\r\na\r\n--sent--\r\n', "multipart/form-data; boundary=declared"),
    ],
    ["multipart cut off", post('--b\r\nContent-Disposition: form-data; name="csrf"\r\n\r\na', "multipart/form-data; boundary=b")],
    ["multipart without a boundary", post("--b\r\n\r\n--b--", "multipart/form-data")],
    ["a form larger than the cap", post(`csrf=${"x".repeat(MAX_FORM_BYTES)}`, "application/x-www-form-urlencoded")],
    [
      "a form that says it is larger than the cap",
      post("csrf=a", "application/x-www-form-urlencoded", { "content-length": String(MAX_FORM_BYTES + 1) }),
    ],
  ])("%s → not one of our forms (null)", async (_, request) => {
    await expect(readForm(request)).resolves.toBeNull();
  });
});
