/**
 * Who a caller is, for the limits that count callers (decision 070): one spelling per person, so
 * that `Holder+1@…`, `h.older@gmail.com`, `0912 345 678` and an IPv6 neighbour in the same /64
 * count as the one guest they are. Pure: no bindings, no Remix.
 */

/** Providers that deliver `a.b@` and `ab@` to the same mailbox. */
const DOTLESS_PROVIDERS: Record<string, string> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" };

/**
 * An email as one mailbox: lower case, trimmed, the `+tag` removed, and for Gmail the dots of the
 * local part ignored and googlemail.com read as gmail.com. Not an address to write to: only a key
 * to count by.
 */
export function normalizedEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf("@");
  if (at <= 0) return trimmed;
  let local = trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1).replace(/\.$/, "");
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_PROVIDERS[domain];
  if (dotless) {
    local = local.replace(/\./g, "");
    domain = dotless;
  }
  return `${local}@${domain}`;
}

/**
 * A phone number in E.164 (`+886912345678`): a number written with its country code keeps it; a
 * national number (leading trunk 0) takes the hotel's country code. Spaces, hyphens and brackets
 * go. Anything else that has no digits stays empty (it names nobody).
 */
export function phoneE164(phone: string, countryCode = "886"): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, "");
  if (digits === "") return "";
  if (trimmed.startsWith("+")) return `+${digits}`;
  if (digits.startsWith("00")) return `+${digits.slice(2)}`;
  if (digits.startsWith(countryCode) && digits.length > countryCode.length + 7) return `+${digits}`;
  return `+${countryCode}${digits.replace(/^0+/, "")}`;
}

/** The 8 groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  // An IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const v4 = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const bytes = v4.slice(2, 6).map(Number);
    if (bytes.some((byte) => byte > 255)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${v4[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  if (!/^[0-9a-f:]+$/.test(text) || (text.match(/::/g)?.length ?? 0) > 1) return null;
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(Math.max(missing, 0)).fill("0"), ...right];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}

/**
 * The key a client address is counted by: an IPv4 address as it is; an IPv6 address by its /64
 * (one household or one server is given a whole /64, and every address in it is the same caller);
 * an IPv4-mapped IPv6 address as its IPv4 address. Empty when there is no address.
 */
export function callerAddressKey(address: string): string {
  const text = address.trim();
  if (text === "") return "";
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) return text;
  const groups = ipv6Groups(text);
  if (!groups) return text.slice(0, 64);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [, , , , , , high = 0, low = 0] = groups;
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/**
 * The networks around a caller, for the limits one person with many addresses must not walk
 * through (issue 37): an IPv6 address's /56 (one household or small site) and /48 (one site or
 * one customer of a provider). Empty for IPv4 and for no address: an IPv4 address is a caller
 * already, and a wider IPv4 network is many people behind a carrier.
 */
export function callerNetworks(address: string): { net56: string; net48: string } {
  const groups = ipv6Groups(address.trim());
  if (!groups || (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)) return { net56: "", net48: "" };
  const [a = 0, b = 0, c = 0, d = 0] = groups;
  const hex = (group: number) => group.toString(16);
  return { net56: `${hex(a)}:${hex(b)}:${hex(c)}:${hex(d & 0xff00)}::/56`, net48: `${hex(a)}:${hex(b)}:${hex(c)}::/48` };
}
