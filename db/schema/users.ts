import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, tstz } from "./_columns";

export const userRoles = ["user", "admin"] as const;
export type UserRole = (typeof userRoles)[number];

/**
 * People who sign in. The first five columns are the ones @auth/drizzle-adapter reads and writes
 * (it inserts only those, so every extra column here has a default).
 */
export const users = pgTable(
  "users",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    name: text("name"),
    /** Stored trimmed and lower-cased (Auth.js normalises e-mail before it reaches us). */
    email: text("email").unique(),
    emailVerified: tstz("email_verified"),
    image: text("image"),
    role: text("role", { enum: userRoles }).notNull().default("user"),
    banned: boolean("banned").notNull().default(false),
    banReason: text("ban_reason"),
    /** A ban with an expiry lifts itself once this moment has passed; null means indefinite. */
    banExpires: tstz("ban_expires"),
    lowBalanceEmailOptOut: boolean("low_balance_email_opt_out").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    // GET /admin/users?role=…&banned=… lists newest first.
    index("users_role_created_idx").on(t.role, t.createdAt),
    index("users_created_idx").on(t.createdAt),
  ],
);

/** OAuth accounts linked to a user (Auth.js shape; property names are the adapter's). */
export const accounts = pgTable(
  "accounts",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").$type<"oauth" | "oidc" | "email" | "webauthn">().notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] }), index("accounts_user_idx").on(t.userId)],
);

/**
 * Browser sessions (Auth.js database strategy). `sessionToken` is the cookie value and is never
 * returned by the API; `id` is the public handle used to list and revoke sessions.
 */
export const sessions = pgTable(
  "sessions",
  {
    sessionToken: text("session_token").primaryKey(),
    id: text("id")
      .notNull()
      .$defaultFn(() => crypto.randomUUID()),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: tstz("expires").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    ...timestamps,
  },
  (t) => [uniqueIndex("sessions_id_uq").on(t.id), index("sessions_user_idx").on(t.userId)],
);

/** Magic-link tokens (Auth.js stores only a hash of the token). */
export const verificationTokens = pgTable(
  "verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: tstz("expires").notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

/** Mail captured outside production instead of being sent (shown at /dev/mailbox). */
export const devMail = pgTable(
  "dev_mail",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** The sign-in link, when the mail carries one (tests and the mailbox read it). */
    url: text("url"),
    createdAt: tstz("created_at").notNull().defaultNow(),
  },
  (t) => [index("dev_mail_to_created_idx").on(t.to, t.createdAt, t.id)],
);
