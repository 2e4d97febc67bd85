import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

/** Loads /docs, recording every request the page makes and every console error. */
async function openDocs(page: Page) {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => void requests.push(r.url()));
  page.on("console", (m) => m.type() === "error" && errors.push(`${m.text()} ${m.location().url}`));
  page.on("pageerror", (e) => void errors.push(e.message));
  await page.goto("/docs");
  // Scalar has rendered the document once its title is a heading.
  await expect(page.getByRole("heading", { name: "Generation Gateway API", level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  return { requests, errors };
}

test("/docs loads nothing from outside the gateway, declares its language and logs no errors", async ({ page, baseURL }) => {
  const { requests, errors } = await openDocs(page);
  const origin = new URL(baseURL!).origin;
  expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("blob:"))).toEqual([]);
  expect(requests).toEqual(expect.arrayContaining([`${origin}/docs/scalar.js`, `${origin}/openapi.json`]));
  expect(errors).toEqual([]);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`/docs has no serious or critical axe findings (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await openDocs(page);
    await expect(page.locator("body")).toHaveClass(new RegExp(`${colorScheme}-mode`));
    const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    const findings = result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id} (${v.nodes.length}): ${v.nodes
            .map((n) => n.target.join(" "))
            .slice(0, 3)
            .join(", ")}`,
      );
    expect(findings).toEqual([]);
  });
}

test("the reference lists GET /models without a required key, and no internal operation", async ({ page }) => {
  await openDocs(page);
  const sidebar = page.getByRole("navigation", { name: /Sidebar/ });
  await sidebar.getByRole("button", { name: /^Models\b/ }).click();
  await sidebar.getByRole("button", { name: /Search the public model catalog/ }).click();
  const operation = page.locator('section[label="Search the public model catalog"]');
  await expect(operation).toContainText("curl");
  await expect(operation).toContainText("/models");
  // Scalar's example for an operation that requires a key carries one; this one does not.
  await sidebar.getByRole("button", { name: /Price of a request before running it/ }).click();
  await expect(page.locator('section[label="Price of a request before running it"]')).toContainText("Authorization: Bearer");
  await expect(operation).not.toContainText("Authorization");

  // What Scalar read: anonymous access is one of GET /models' options; the estimate needs a key.
  const doc = await (await page.request.get("/openapi.json")).json();
  expect(doc.paths["/models"].get.security).toContainEqual({});
  expect(doc.paths["/models/{modelId}"].get.security).toContainEqual({});
  expect(doc.paths["/models/{modelId}/estimate"].post.security).not.toContainEqual({});

  const text = await page.locator("body").innerText();
  expect(text).not.toContain("/api/inngest");
  expect(text).not.toContain("Inngest");
  expect(text).not.toContain("/sim/");
});
