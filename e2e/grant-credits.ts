/**
 * `tsx e2e/grant-credits.ts <userId> <rub>` — grants credits to a user of the running e2e server
 * through the ledger (as an admin grant does). Run in its own process: the app's modules are ESM
 * with aliases, which the Playwright runner does not load.
 */
import { postgresHandle } from "@/db/client";
import { cliDatabaseUrl } from "@/db/pglite-lock";
import { grantCredits } from "@/lib/billing/ledger/ledger";
import { rubToCredits } from "@/lib/pricing/credits";

async function main() {
  const [userId, rub] = process.argv.slice(2);
  const url = cliDatabaseUrl();
  if (!userId || !rub || !url)
    throw new Error("usage: DATA_DIR=<e2e data dir> tsx e2e/grant-credits.ts <userId> <rub> (with the app running)");
  const handle = postgresHandle(url, 1);
  try {
    const move = await grantCredits(handle.db, {
      userId,
      credits: rubToCredits(rub),
      type: "grant",
      idempotencyKey: `e2e-grant:${userId}`,
      description: "e2e",
    });
    process.stdout.write(JSON.stringify({ balance: move.balance }) + "\n");
  } finally {
    await handle.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`grant-credits: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
