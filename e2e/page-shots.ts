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
