"use client";

import type { FormEvent } from "react";
import { FormAlert } from "@/components/form-alert";
import { Button } from "@/components/ui/button";
import { CardContent, CardFooter } from "@/components/ui/card";

/** A card's one-button form (a link's token sent back): the refusal above, the button across the card's foot. */
export function CardButtonForm({
  token,
  onSubmit,
  pending,
  error,
  label,
  pendingLabel,
}: {
  token: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  pending: boolean;
  error: string | null;
  label: string;
  pendingLabel: string;
}) {
  return (
    <form onSubmit={onSubmit}>
      <input type="hidden" name="token" value={token} />
      {error ? (
        <CardContent>
          <FormAlert>{error}</FormAlert>
        </CardContent>
      ) : null}
      <CardFooter className="mt-2">
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? pendingLabel : label}
        </Button>
      </CardFooter>
    </form>
  );
}
