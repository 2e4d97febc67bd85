import Link from "next/link";
import { Badge, cellClass, Field, formatTime, Input, Select, Table } from "@/components/dashboard/ui";
import { listState, pageHref, Pager, type SearchParams } from "@/components/dashboard/pager";
import { Card, PageHeader } from "@/components/ui/card";
import { listUsers } from "@/lib/admin/users/list-users";
import { formatCredits } from "@/lib/money/credits";
import { listUsersQuery } from "@/lib/api/contracts/admin-users";
import { requireAdmin } from "@/lib/auth/viewer";

export const metadata = { title: "Users" };

const PAGE_SIZE = 50;

/** The URL holds the state (search, filters, page), so views can be shared and reloaded. */
function parse(search: SearchParams) {
  const { one, page } = listState(search);
  const parsed = listUsersQuery.safeParse({ q: one("q"), role: one("role"), banned: one("banned"), limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  return { page, query: parsed.success ? parsed.data : listUsersQuery.parse({ limit: PAGE_SIZE }) };
}

export default async function AdminUsersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { db } = await requireAdmin();
  const { page, query } = parse(await searchParams);
  const result = await listUsers(db, query);
  const filters = { q: query.q, role: query.role, banned: query.banned };
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  return (
    <>
      <PageHeader title="Users" description={`${result.total.toLocaleString("en-US")} matching`} />
      <Card>
        <form method="get" className="mb-4 grid gap-3 sm:grid-cols-[1fr_10rem_10rem_auto] sm:items-end">
          <Field label="Search">
            <Input name="q" defaultValue={query.q ?? ""} placeholder="E-mail or name" maxLength={64} />
          </Field>
          <Field label="Role">
            <Select name="role" defaultValue={query.role ?? ""}>
              <option value="">Any</option>
              <option value="user">User</option>
              <option value="admin">Admin</option>
            </Select>
          </Field>
          <Field label="Ban">
            <Select name="banned" defaultValue={query.banned ?? ""}>
              <option value="">Any</option>
              <option value="true">Banned</option>
              <option value="false">Not banned</option>
            </Select>
          </Field>
          <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
            Filter
          </button>
        </form>
        <Table head={["User", "Role", "Status", "Balance", "Joined"]}>
          {result.items.map((u) => (
            <tr key={u.id} data-testid="admin-user-row">
              <td className={cellClass}>
                <Link href={`/dashboard/admin/users/${encodeURIComponent(u.id)}`} className="font-medium text-brand-700 hover:underline">
                  {u.email ?? u.id}
                </Link>
                {u.name && <div className="text-xs text-slate-500">{u.name}</div>}
              </td>
              <td className={cellClass}>{u.role === "admin" ? <Badge tone="brand">admin</Badge> : "user"}</td>
              <td className={cellClass}>{u.banned ? <Badge tone="red">Banned</Badge> : <Badge tone="green">Active</Badge>}</td>
              <td className={`${cellClass} tabular-nums`}>{formatCredits(u.balance)}</td>
              <td className={cellClass}>{formatTime(u.createdAt)}</td>
            </tr>
          ))}
        </Table>
        {result.items.length === 0 && <p className="py-6 text-center text-sm text-slate-500">No users match.</p>}
        <Pager page={page} pages={pages} hrefFor={(p) => pageHref("/dashboard/admin/users", filters, p)} />
      </Card>
    </>
  );
}
