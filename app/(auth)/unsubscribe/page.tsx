import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { unsubscribeTarget } from "@/lib/notifications/unsubscribe";
import { UnsubscribeForm } from "./unsubscribe-form";

export const metadata: Metadata = { title: "Unsubscribe" };

/**
 * Where an email's unsubscribe link lands, signed in or not. It asks before it changes
 * anything, since mail scanners open links; mail clients use the one-click POST (app/api/unsubscribe).
 */
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  const target = typeof token === "string" ? await unsubscribeTarget(token) : null;
  if (!target) {
    return (
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">This unsubscribe link is not valid</CardTitle>
          <CardDescription>Open the link from the email again, or sign in and change what you get under Settings › Email in your organization.</CardDescription>
        </CardHeader>
        <CardFooter>
          <Button asChild variant="outline" className="w-full">
            <Link href="/signin">Sign in</Link>
          </Button>
        </CardFooter>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Stop {target.emails}?</CardTitle>
        <CardDescription>
          {target.email} will no longer get {target.emails} from {target.orgName}. Alerts still show under the bell, and you can turn the emails back on in the
          organization&apos;s notification settings.
        </CardDescription>
      </CardHeader>
      <UnsubscribeForm token={token as string} />
    </Card>
  );
}
