import { deviceOf } from "./user-agent";

/** A session's device as "Chrome 131 · Linux", the raw User-Agent on hover; `unknown` without one. */
export function DeviceLabel({
  userAgent,
  unknown,
  on,
}: {
  userAgent: string | null;
  unknown: string;
  on: (browser: string, os: string) => string;
}) {
  const device = deviceOf(userAgent);
  const text = !device ? unknown : device.browser && device.os ? on(device.browser, device.os) : (device.browser ?? device.os ?? unknown);
  return (
    <span title={userAgent ?? undefined} data-testid="session-device">
      {text}
    </span>
  );
}
