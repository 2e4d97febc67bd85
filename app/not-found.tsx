import { ButtonLink } from "@/components/ui/button";

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 text-center">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Page not found</h1>
      <p className="max-w-md text-slate-600">The page you asked for does not exist or has moved.</p>
      <div className="flex gap-3">
        <ButtonLink href="/">Home</ButtonLink>
        <ButtonLink href="/catalog" variant="secondary">
          Models
        </ButtonLink>
      </div>
    </main>
  );
}
