/**
 * Runs once when the server process starts (Node.js runtime only): validates configuration and
 * opens and migrates the database, so a bad setting stops start-up and the first request does not
 * pay for migrations.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("@/lib/server/start");
  await startServer();
}
