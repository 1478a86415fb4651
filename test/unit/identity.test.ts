import { describe, expect, it } from "vitest";
import { callerAddressKey, callerNetworks, normalizedEmail, phoneE164 } from "~/domain/identity";

describe("normalizedEmail: one mailbox, one key", () => {
  it.each([
    ["Holder@Example.com", "holder@example.com"],
    ["  holder@example.com ", "holder@example.com"],
    ["holder+1@example.com", "holder@example.com"],
    ["holder+hotel+2@example.com", "holder@example.com"],
    ["h.older@gmail.com", "holder@gmail.com"],
    ["H.O.L.D.E.R+x@GoogleMail.com", "holder@gmail.com"],
    // Other providers deliver a.b and ab to different people: dots stay.
    ["h.older@example.com", "h.older@example.com"],
    // A plus at the start is the name itself, not a tag.
    ["+holder@example.com", "+holder@example.com"],
    ["not-an-email", "not-an-email"],
  ])("%j → %j", (email, key) => {
    expect(normalizedEmail(email)).toBe(key);
  });
});

describe("phoneE164", () => {
  it.each([
    ["0912345678", "+886912345678"],
    ["0912-345-678", "+886912345678"],
    ["0912 345 678", "+886912345678"],
    ["+886 912 345 678", "+886912345678"],
    ["+886-912-345-678", "+886912345678"],
    ["00886912345678", "+886912345678"],
    ["886912345678", "+886912345678"],
    ["(02) 2345-6789", "+886223456789"],
    ["+1 (555) 123-4567", "+15551234567"],
    ["", ""],
  ])("%j → %j", (phone, key) => {
    expect(phoneE164(phone)).toBe(key);
  });

  it("takes the hotel's country code for a national number", () => {
    expect(phoneE164("090-1234-5678", "81")).toBe("+819012345678");
  });
});

describe("callerAddressKey: IPv4 as it is, IPv6 by its /64", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:0000:0000:0000:0009", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::5]", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["", ""],
  ])("%j → %j", (address, key) => {
    expect(callerAddressKey(address)).toBe(key);
  });

  it("puts two neighbours of one /64 together and the next /64 apart", () => {
    expect(callerAddressKey("2001:db8:1:2::1")).toBe(callerAddressKey("2001:db8:1:2:ffff::"));
    expect(callerAddressKey("2001:db8:1:2::1")).not.toBe(callerAddressKey("2001:db8:1:3::1"));
  });
});

describe("callerNetworks: an IPv6 caller's /56 and /48, nothing for IPv4", () => {
  it.each([
    ["2001:db8:1:2::1", "2001:db8:1:0::/56", "2001:db8:1::/48"],
    ["2001:db8:1:1ff::1", "2001:db8:1:100::/56", "2001:db8:1::/48"],
    ["2001:0DB8:00AB:12FF:0:0:0:9", "2001:db8:ab:1200::/56", "2001:db8:ab::/48"],
    ["203.0.113.9", "", ""],
    ["::ffff:203.0.113.9", "", ""],
    ["", "", ""],
  ])("%j → %j, %j", (address, net56, net48) => {
    expect(callerNetworks(address)).toEqual({ net56, net48 });
  });

  it("puts the eight /64s of one /48 in one /48, and two /48s apart", () => {
    const nets = Array.from({ length: 8 }, (_, i) => callerNetworks(`2001:db8:7:${(i * 0x1000).toString(16)}::1`).net48);
    expect(new Set(nets).size).toBe(1);
    expect(callerNetworks("2001:db8:7::1").net48).not.toBe(callerNetworks("2001:db8:8::1").net48);
  });
});
