import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { default: "Generation Gateway", template: "%s · Generation Gateway" },
  description: "Generate images, video and audio on catalogued models through one API, paid from a balance in rubles.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // One locale per request (lib/i18n/request.ts); client components get it and its messages here.
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body className="min-h-screen">
        <NextIntlClientProvider>
          <Providers>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
