"use client";

import { useEffect } from "react";

/**
 * Asks Auth.js for the session once per dashboard load. Auth.js then slides the session's expiry
 * (at most once a day) and re-sets the cookie, which a server component cannot do, so an active
 * user is never signed out mid-month.
 */
export function SessionKeepAlive() {
  useEffect(() => {
    void fetch("/api/auth/session", { credentials: "same-origin", cache: "no-store" }).catch(() => {});
  }, []);
  return null;
}
