import { test, type Page } from "@playwright/test";

/**
 * A full-page screenshot kept as a test artifact (test-results/<run>/<test>/<name>.png). Taken when
 * a check on the page failed (`failed`), or for every page with E2E_PAGE_SHOTS=1, to look the pages
 * over by eye. Encoding a long page costs a second or more on two shared cores: the a11y and
 * phone suites took one per page and width, minutes of the e2e run.
 */
export async function keepPageShot(page: Page, name: string, failed = false): Promise<void> {
  if (!failed && process.env.E2E_PAGE_SHOTS !== "1") return;
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/**
 * A full-page screenshot attached to the test's results and kept beside them
 * (test-results/<run>/<test>/<name>.png), whatever the outcome: the pages the issue asks to see.
 */
export async function attachPageShot(page: Page, name: string): Promise<void> {
  const path = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: "image/png" });
}
