import { describe, expect, test } from "vitest";
import { canCallBack, isPrivateUrl } from "./reachable";

describe("callback reachability", () => {
  test("private hosts: loopback, RFC 1918 and link-local addresses, localhost and private names", () => {
    for (const url of [
      "http://127.0.0.1:3000/x",
      "http://[::1]:3000/",
      "http://10.1.2.3/",
      "http://192.168.0.5/",
      "http://169.254.1.1/",
      "http://localhost:3000/",
      "http://app.localhost/",
      "http://gateway.local/",
      "http://gateway/",
      "not a url",
    ])
      expect(isPrivateUrl(url), url).toBe(true);
    for (const url of ["https://gateway.example.com/webhooks/provider", "https://queue.fal.run", "http://93.184.216.34/"])
      expect(isPrivateUrl(url), url).toBe(false);
  });

  test("fal's cloud calls back a public gateway, not one on a laptop; a simulator on loopback calls back either", () => {
    expect(canCallBack("https://queue.fal.run", "https://gw.example.com/webhooks/provider")).toBe(true);
    expect(canCallBack("https://queue.fal.run", "http://localhost:3000/webhooks/provider")).toBe(false);
    expect(canCallBack("http://127.0.0.1:3221", "http://127.0.0.1:3220/webhooks/provider")).toBe(true);
  });
});
