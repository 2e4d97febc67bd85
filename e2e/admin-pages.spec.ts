import { expect, test, type Locator } from "@playwright/test";
import { DESKTOP, expectFits, expectNoSidewaysScroll, grantRubles, PHONE, sessionUser } from "./page-fit";

/** The text of each line the element's text is laid out on. */
async function linesOf(el: Locator): Promise<string[]> {
  return el.evaluate((node) => {
    const lines: { top: number; text: string }[] = [];
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const text = t.textContent ?? "";
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(t, i);
        range.setEnd(t, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        const top = Math.round(rect.top);
        const line = lines.find((l) => Math.abs(l.top - top) < 4);
        if (line) line.text += text[i];
        else lines.push({ top, text: text[i]! });
      }
    }
    return lines.sort((a, b) => a.top - b.top).map((l) => l.text.trim());
  });
}

const LONG_EMAIL = (stamp: number) => `a-rather-long-customer-address-${stamp}@mail.example-company.test`;

const words = {
  en: {
    price: "Price before discount, ₽",
    unit: "Unit",
    discount: "Discount, %",
    edit: "Edit price and discount",
    next: "Next",
    device: "Chrome 131 on Linux",
    clawbackTitle: (email: string) => `Claw back 1.00 ₽ from ${email}?`,
    clawback: "Claw back",
    cancel: "Cancel",
    amount: "Amount, ₽",
    windows: ["the last 24 hours", "the last 7 days", "the last 30 days"],
  },
  ru: {
    price: "Цена без скидки, ₽",
    unit: "Единица",
    discount: "Скидка, %",
    edit: "Изменить цену и скидку",
    next: "Вперёд",
    device: "Chrome 131, Linux",
    clawbackTitle: (email: string) => `Списать 1,00 ₽ у пользователя ${email}?`,
    clawback: "Списать",
    cancel: "Отмена",
    amount: "Сумма, ₽",
    windows: ["последние 24 часа", "последние 7 дней", "последние 30 дней"],
  },
} as const;

for (const lang of ["en", "ru"] as const) {
  test.describe(`admin pages (${lang})`, () => {
    test.use({ locale: lang === "ru" ? "ru-RU" : "en-US" });
    const w = words[lang];

    test("the models table pages, fits at 1366 px, and its price editor has labelled fields that take focus", async ({
      page,
      context,
      baseURL,
    }) => {
      await sessionUser(context, baseURL!, { admin: true });
      await page.setViewportSize(DESKTOP);
      await page.goto("/dashboard/admin/models");
      const rows = page.locator("tr[data-model-id]");
      await expect(rows).toHaveCount(25);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(height, `the page is ${height}px tall`).toBeLessThan(4000);
      await expectFits(page.locator("main"), "the models table");
      await page.getByRole("link", { name: w.next }).click();
      await expect(page).toHaveURL(/offset=25/);
      await expect(rows.first()).toBeVisible();

      await page.goto("/dashboard/admin/models?search=wizper");
      const row = page.locator('tr[data-model-id="fal-ai/wizper"]');
      await row.getByTitle(w.edit).click();
      const editor = row.getByTestId("price-editor");
      // Each field has a visible label (not only an aria-label), and the price takes the focus.
      for (const name of [w.price, w.unit, w.discount]) await expect(editor.getByText(name, { exact: true })).toBeVisible();
      await expect(editor.getByLabel(w.price)).toBeFocused();
      await expect(editor.getByLabel(w.unit)).toBeVisible();
      await expect(editor.getByLabel(w.discount)).toBeVisible();
      await expectFits(page.locator("main"), "the models table with the editor open");

      await page.setViewportSize(PHONE);
      await page.goto("/dashboard/admin/models");
      await expectNoSidewaysScroll(page);
    });

    test("a user's page: e-mails wrap at sensible points, the transactions stay in their grid, a clawback confirms", async ({
      page,
      context,
      baseURL,
    }) => {
      const stamp = Date.now();
      await sessionUser(context, baseURL!, { admin: true });
      const target = await sessionUser(null, baseURL!, { email: LONG_EMAIL(stamp) });
      grantRubles(target.userId, 5);

      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto(`/dashboard/admin/users/${target.userId}`);
        const heading = page.getByRole("heading", { level: 1 });
        await expect(heading).toHaveText(target.email);
        // Each line of the address starts at "@" or "." or after a hyphen: never inside a word.
        const lines = await linesOf(heading);
        for (let i = 1; i < lines.length; i++) {
          expect(/^[@.]/.test(lines[i]!) || lines[i - 1]!.endsWith("-"), `line break before "${lines[i]}" after "${lines[i - 1]}"`).toBe(
            true,
          );
        }
        await expectNoSidewaysScroll(page);
        const transactions = page.getByTestId("transaction-row").first().locator("xpath=ancestor::section[1]");
        const grid = transactions.locator("xpath=..");
        const [card, box] = [(await transactions.boundingBox())!, (await grid.boundingBox())!];
        expect(card.x + card.width).toBeLessThanOrEqual(box.x + box.width + 1);
        if (viewport === DESKTOP) await expectFits(transactions, "the transactions card");
        // The usage windows read as words.
        for (const label of w.windows) await expect(page.getByRole("cell", { name: label, exact: true })).toBeVisible();
      }
      // The admin's own sessions card names the browser.
      await page.goto(`/dashboard/admin/users/${target.userId}`);
      await expect(page.getByTestId("session-device").first()).toHaveText(w.device);

      // A clawback asks first, naming the amount and the user; cancelling moves nothing.
      await page.setViewportSize(DESKTOP);
      await page.getByLabel(w.amount).fill("1");
      await page.getByRole("button", { name: w.clawback, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: w.clawbackTitle(target.email) });
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: w.cancel }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId("admin-user-balance")).toHaveText(lang === "ru" ? "5,00 ₽" : "5.00 ₽");
    });

    test("sessions name the browser and the system, not the raw user agent", async ({ page, context, baseURL }) => {
      await sessionUser(context, baseURL!);
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto("/dashboard/sessions");
        const device = page.getByTestId("session-row").first().getByTestId("session-device");
        await expect(device).toHaveText(w.device);
        await expect(device).toHaveAttribute("title", /^Mozilla\/5\.0/);
        await expectNoSidewaysScroll(page);
      }
    });

    test("the providers table fits its card at 1366 px, every column in view", async ({ page, context, baseURL }) => {
      await sessionUser(context, baseURL!, { admin: true });
      await page.setViewportSize(DESKTOP);
      await page.goto("/dashboard/admin/providers");
      const row = page.getByTestId("provider-row").first();
      await expect(row).toBeVisible();
      await expectFits(page.locator("main section").filter({ has: row }), "the providers card");
    });

    test("the keys table fits its card at 1366 px with every action in view", async ({ page, context, baseURL }) => {
      await sessionUser(context, baseURL!);
      for (const name of ["production-server-key", "мой первый ключ для агентов"]) {
        expect((await page.request.post("/me/keys", { data: { name } })).status()).toBe(201);
      }
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto("/dashboard/keys");
        await expect(page.getByTestId("key-row")).toHaveCount(2);
        await expectNoSidewaysScroll(page);
        if (viewport === DESKTOP)
          await expectFits(page.locator("main section").filter({ has: page.getByTestId("key-row").first() }), "the keys card");
        for (const button of await page.getByTestId("key-row").getByRole("button").all()) {
          const b = (await button.boundingBox())!;
          expect(b.x + b.width).toBeLessThanOrEqual(viewport.width);
        }
        // No action runs under its neighbour ("Переименовать" over "Лимит" in a two-column grid).
        for (const row of await page.getByTestId("key-row").all()) {
          const boxes = await Promise.all((await row.getByRole("button").all()).map(async (b) => (await b.boundingBox())!));
          const overlapping = boxes.flatMap((a, i) =>
            boxes
              .slice(i + 1)
              .filter((b) => a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1),
          );
          expect(overlapping, "actions overlapping").toEqual([]);
        }
      }
    });
  });
}
