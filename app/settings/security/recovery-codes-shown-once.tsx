"use client";

import { Download, TriangleAlert } from "lucide-react";
import { toast } from "@/components/toast";
import { CopyButton } from "@/components/copy-button";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CardContent } from "@/components/ui/card";

/**
 * New recovery codes, shown once: copy them, download them as a text file, then say they are
 * saved. Nothing brings them back.
 */
export function RecoveryCodesShownOnce({ codes, onDone, doneMessage }: { codes: string[]; onDone: () => void; doneMessage: string }) {
  const text = `Invoicing recovery codes\n\n${codes.join("\n")}\n\nEach code works once, in place of a code from your authenticator app.\n`;
  const download = () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    link.download = "invoicing-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <CardContent className="space-y-4">
      <Alert variant="warning">
        <TriangleAlert className="size-4" aria-hidden />
        <AlertTitle>Save your recovery codes now</AlertTitle>
        <AlertDescription>
          <p>They are shown this once. If you lose your phone, each code signs you in once in place of a code from the app.</p>
        </AlertDescription>
      </Alert>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-x-6 gap-y-1.5 rounded-md border bg-muted/40 p-4 font-mono text-sm sm:grid-cols-5 sm:gap-x-4"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton value={codes.join("\n")} label="Copy codes" showLabel size="sm" />
        <Button type="button" variant="outline" size="sm" onClick={download}>
          <Download className="size-4" aria-hidden /> Download
        </Button>
        <Button
          type="button"
          size="sm"
          className="sm:ml-auto"
          onClick={() => {
            onDone();
            toast.success(doneMessage);
          }}
        >
          I have saved them
        </Button>
      </div>
    </CardContent>
  );
}
