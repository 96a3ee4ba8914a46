"use client";

import { Plus } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { DialogLoading } from "@/components/dialog-loading";
import { onDemand } from "@/components/on-demand";
import { OneTimeKeyDialog, type RevealedKey } from "@/components/one-time-key-dialog";
import { hrefInMode } from "@/components/test-mode";
import { Button } from "@/components/ui/button";
import { MODE_VALUES, type Mode } from "@/core/enums";
import type { KeyPolicy } from "@/lib/keys/policy";

/** The form loads when first wanted (the pointer on the button, focus, or the click), not with the list. */
const CreateKeyForm = onDemand(() => import("./create-key-form").then((module) => module.CreateKeyForm), <DialogLoading />);

/**
 * "Create API key"; at the plan's limit of active keys in a mode, that limit beside the button, so
 * the person learns it before filling in the form (the server refuses either way); the button is
 * disabled only when both modes are full, since the maximum counts live and test keys apart. One
 * tree in every case: creating the last allowed key turns the limit on while its value is still on
 * screen, and the dialog that shows it must stay mounted.
 */
export function CreateKeyDialog({
  orgId,
  keyPolicy,
  limits,
  preferredMode,
}: {
  orgId: string;
  keyPolicy: KeyPolicy;
  limits: Record<Mode, string | null>;
  preferredMode: Mode;
}) {
  const reached = MODE_VALUES.flatMap((mode) => limits[mode] ?? []);
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  // The list shows the keys of the dashboard's mode: a key of the other one is shown in its own.
  const showKeysOf = (key: RevealedKey) => {
    if (key.mode !== preferredMode) router.push(hrefInMode(pathname, params, key.mode));
  };
  return (
    <div className="flex max-w-xs flex-col items-start gap-2 sm:items-end">
      <OneTimeKeyDialog
        trigger={
          <Button
            disabled={reached.length === MODE_VALUES.length}
            aria-describedby={reached.length > 0 ? "key-limit" : undefined}
            {...CreateKeyForm.prefetchHandlers}
          >
            <Plus className="size-4" aria-hidden /> Create API key
          </Button>
        }
        intro={(key) => (
          <>
            “{key.name}” is ready{key.mode === "test" ? ": a test key, for test data only" : ""}.
          </>
        )}
        onClosed={showKeysOf}
        form={(reveal) => <CreateKeyForm orgId={orgId} keyPolicy={keyPolicy} limits={limits} preferredMode={preferredMode} onCreated={reveal} />}
      />
      {reached.length > 0 ? (
        <p id="key-limit" className="text-sm text-muted-foreground sm:text-right">
          {reached.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
