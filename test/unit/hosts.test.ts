import { describe, expect, it } from "vitest";
import { clientAddress, isLocalHost, isLoopbackAddress, isLoopbackHost } from "~/lib/hosts";

describe("local hosts", () => {
  it("knows this machine by name, and *.localhost as local but not loopback", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "[::1]"]) {
      expect(isLoopbackHost(host)).toBe(true);
      expect(isLocalHost(host)).toBe(true);
    }
    expect(isLoopbackHost("portico.localhost")).toBe(false);
    expect(isLocalHost("portico.localhost")).toBe(true);
    for (const host of ["example.com", "localhost.example.com", "127.0.0.2.nip.io"]) expect(isLocalHost(host)).toBe(false);
  });
});

describe("the client's address", () => {
  const from = (address?: string) =>
    new Request("https://hotel.example/", { headers: address === undefined ? {} : { "cf-connecting-ip": address } });

  it("is Cloudflare's cf-connecting-ip", () => {
    expect(clientAddress(from("203.0.113.9"))).toBe("203.0.113.9");
    expect(clientAddress(from("2001:db8::1"))).toBe("2001:db8::1");
  });

  it("is empty for none and for this machine's own", () => {
    expect(clientAddress(from())).toBe("");
    for (const address of ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"]) {
      expect(isLoopbackAddress(address)).toBe(true);
      expect(clientAddress(from(address))).toBe("");
    }
    expect(isLoopbackAddress("::12")).toBe(false);
  });
});
