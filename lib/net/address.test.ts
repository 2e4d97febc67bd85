import { describe, expect, test } from "vitest";
import { embeddedIPv4, ipv6Bytes, isAddressAllowed, isPrivateAddress } from "./address";

describe("isPrivateAddress", () => {
  test.each([
    "127.0.0.1",
    "127.255.255.254",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "198.18.0.1",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "192.0.2.10",
    "::",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b::10.0.0.1",
    "64:ff9b:1::1",
    "2002:7f00:1::1",
    "2002:c0a8:101::",
    "fc00::1",
    "fd12:3456:789a::1",
    "fe80::1",
    "fe80::1%eth0",
    "fec0::1",
    "ff02::1",
    "ff05::1:3",
    "2001:db8::1",
    "2001::1",
    "100::1",
    "not-an-ip",
  ])("%s is refused", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  test.each([
    "1.1.1.1",
    "8.8.8.8",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:81d::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("%s is public", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  test("IPv6 parsing expands :: and dotted tails", () => {
    expect(Array.from(ipv6Bytes("::ffff:1.2.3.4")!)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
    expect(embeddedIPv4(ipv6Bytes("64:ff9b::c0a8:0101")!)).toBe("192.168.1.1");
    expect(ipv6Bytes("1.2.3.4")).toBeNull();
  });
});

describe("policy", () => {
  test("ALLOW_PRIVATE_URLS allows everything; an allow list opens only its ranges", () => {
    expect(isAddressAllowed("127.0.0.1", { allowPrivate: true })).toBe(true);
    const policy = { allow: ["127.0.0.2/32", "fd00::/8"] };
    expect(isAddressAllowed("127.0.0.2", policy)).toBe(true);
    expect(isAddressAllowed("127.0.0.1", policy)).toBe(false);
    expect(isAddressAllowed("fd00::5", policy)).toBe(true);
    expect(isAddressAllowed("8.8.8.8", {})).toBe(true);
  });
});
