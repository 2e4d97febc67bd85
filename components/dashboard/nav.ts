/** Dashboard navigation; each area's issue fills its page. */
export const userNav = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/usage", label: "Usage" },
  { href: "/dashboard/activity", label: "Activity" },
  { href: "/dashboard/billing", label: "Billing" },
  { href: "/dashboard/profile", label: "Profile" },
  { href: "/dashboard/sessions", label: "Sessions" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/integrations", label: "Integrations" },
];

export const adminNav = [
  { href: "/dashboard/admin", label: "Stats" },
  { href: "/dashboard/admin/users", label: "Users" },
  { href: "/dashboard/admin/models", label: "Models" },
  { href: "/dashboard/admin/transactions", label: "Transactions" },
];
