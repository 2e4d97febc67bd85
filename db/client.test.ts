import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDbHandle, rawRows, relaxedOf, tableRow } from "@/db/client";
import { preparedQuery, preparedStatement } from "@/db/prepared";
import { generationRequests, users } from "@/db/schema";
import { createUser } from "@/test/factories";

const setting = async (db: Parameters<typeof rawRows>[0]) =>
  (await rawRows<{ value: string }>(db, sql`select current_setting('synchronous_commit') as value`))[0]!.value;

describe("the database handle", () => {
  test("relaxedOf: on PostgreSQL a twin whose commits do not wait for the WAL flush; elsewhere the same database", async () => {
    const { db, kind } = await getDbHandle();
    expect(await setting(db)).toBe("on");
    if (kind === "postgres") {
      expect(relaxedOf(db)).not.toBe(db);
      expect(await setting(relaxedOf(db))).toBe("off");
      // What the twin writes, the main pool reads at once (asynchronous commit is about durability only).
      const user = await createUser();
      await relaxedOf(db).update(users).set({ name: "relaxed" }).where(eq(users.id, user.id));
      const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, user.id));
      expect(row!.name).toBe("relaxed");
    } else {
      expect(relaxedOf(db)).toBe(db);
    }
    await db.transaction(async (tx) => expect(relaxedOf(tx)).toBe(tx));
  });

  test("on PostgreSQL a parameterised query is prepared once per connection and then reused", async () => {
    const { db, kind } = await getDbHandle();
    const user = await createUser();
    // One connection in a transaction, so the statement cache it reads is the one that ran the query.
    const prepared = await db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id));
      return rawRows<{ statement: string }>(
        tx,
        sql`select statement from pg_prepared_statements where statement = ${'select "id" from "users" where "users"."id" = $1'}`,
      );
    });
    expect(prepared.length).toBe(kind === "postgres" ? 1 : 0);
  });

  test("preparedQuery builds once per handle and runs with new values", async () => {
    const { db } = await getDbHandle();
    const [a, b] = [await createUser(), await createUser()];
    const byId = preparedQuery((d) =>
      d
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, sql.placeholder("id")))
        .prepare("user_email_by_id"),
    );
    expect(byId(db)).toBe(byId(db));
    expect(await byId(db).execute({ id: a.id })).toEqual([{ email: a.email }]);
    expect(await byId(db).execute({ id: b.id })).toEqual([{ email: b.email }]);
  });

  test("preparedStatement builds a raw statement once per handle and shape, and runs it with new values", async () => {
    const { db } = await getDbHandle();
    const [a, b] = [await createUser(), await createUser()];
    let builds = 0;
    const emails = preparedStatement((shape: "one" | "two") => {
      builds++;
      const p = (name: string) => sql.placeholder(name);
      return shape === "one"
        ? sql`select email, ${p("tag")}::text as tag from users where id = ${p("a")}`
        : sql`select email, ${p("tag")}::text as tag from users where id in (${p("a")}, ${p("b")}) order by email`;
    });
    expect(await emails(db, "one", { a: a.id, tag: "x" })).toEqual([{ email: a.email, tag: "x" }]);
    expect(await emails(db, "one", { a: b.id, tag: "y" })).toEqual([{ email: b.email, tag: "y" }]);
    expect(await emails(db, "two", { a: a.id, b: b.id, tag: "z" })).toEqual(
      [a.email, b.email].sort().map((email) => ({ email, tag: "z" })),
    );
    expect(builds).toBe(2);
  });

  test("tableRow maps a raw `returning *` row exactly as the query builder maps it", async () => {
    const { db } = await getDbHandle();
    const user = await createUser();
    const [built] = await db
      .insert(generationRequests)
      .values({
        id: crypto.randomUUID(),
        userId: user.id,
        modelId: "m",
        surface: "gateway",
        mode: "sync",
        input: { a: [1] },
        provider: "local",
        costReservedCredits: 12_345,
      })
      .returning();
    const [raw] = await rawRows<Record<string, unknown>>(db, sql`select * from generation_requests where id = ${built!.id}`);
    expect(tableRow(generationRequests, raw!)).toEqual(built);
  });
});
