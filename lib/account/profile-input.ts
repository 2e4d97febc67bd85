import { z } from "zod";

// What a caller may change of their profile; lib/http/contracts/me.ts serves it.
export const updateMeBody = z
  .object({
    name: z.string().trim().min(1).max(100).nullable().optional(),
    image: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .optional()
      .meta({ description: "An http(s) URL of an avatar image, or null to remove it" }),
    lowBalanceEmailOptOut: z.boolean().optional().meta({ description: "true stops low-balance notice e-mails" }),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "Nothing to change: send name, image or lowBalanceEmailOptOut",
  })
  .meta({ id: "UpdateProfile" });
