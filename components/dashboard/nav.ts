/** Dashboard navigation; labels are message keys of the "nav" namespace. */
export type NavKey =
  | "overview"
  | "keys"
  | "usage"
  | "activity"
  | "billing"
  | "profile"
  | "sessions"
  | "webhooks"
  | "integrations"
  | "stats"
  | "users"
  | "models"
  | "transactions"
  | "providers";

export const userNav: { href: string; label: NavKey }[] = [
  { href: "/dashboard", label: "overview" },
  { href: "/dashboard/keys", label: "keys" },
  { href: "/dashboard/usage", label: "usage" },
  { href: "/dashboard/activity", label: "activity" },
  { href: "/dashboard/billing", label: "billing" },
  { href: "/dashboard/profile", label: "profile" },
  { href: "/dashboard/sessions", label: "sessions" },
  { href: "/dashboard/webhooks", label: "webhooks" },
  { href: "/dashboard/integrations", label: "integrations" },
];

export const adminNav: { href: string; label: NavKey }[] = [
  { href: "/dashboard/admin", label: "stats" },
  { href: "/dashboard/admin/users", label: "users" },
  { href: "/dashboard/admin/models", label: "models" },
  { href: "/dashboard/admin/transactions", label: "transactions" },
  { href: "/dashboard/admin/providers", label: "providers" },
];
