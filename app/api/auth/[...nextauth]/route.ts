import { handlers } from "@/lib/sign-in/authjs";

// GET|POST /api/auth/* – Auth.js: magic-link and OAuth sign-in, callbacks, session, sign-out
export const { GET, POST } = handlers;
