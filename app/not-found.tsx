import Link from "next/link";
import { Button } from "@/components/ui/button";

export default function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <p className="text-sm font-semibold text-primary">404</p>
      <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
      <p className="max-w-md text-muted-foreground">
        This page does not exist, or you do not have access to it. Check the address, or go back to your organization.
      </p>
      <Button asChild>
        <Link href="/">Go to my organization</Link>
      </Button>
    </main>
  );
}
