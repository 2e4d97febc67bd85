import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import type { Locale } from "../core/locales";

export type Messages = typeof en;

// ru.json must have every key en.json has (a test compares them); the type keeps them in step too.
const all: Record<Locale, Messages> = { en, ru };

export const messagesFor = (locale: Locale): Messages => all[locale];
