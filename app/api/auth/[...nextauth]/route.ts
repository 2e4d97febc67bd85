import { handlers } from "@/lib/auth/authjs";

// GET|POST /api/auth/* – Auth.js: magic-link and OAuth sign-in, callbacks, session, sign-out
export const { GET, POST } = handlers;
