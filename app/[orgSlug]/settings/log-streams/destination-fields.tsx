"use client";

import { useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { DATADOG_SITES, type LogStreamKind } from "@/core/log-streams";

type Errors = Record<string, string[] | undefined>;

/** A `whsec_` secret made in the browser, so the receiver can be set up before the stream exists; any other may be pasted instead. */
function newSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

const secret = { type: "password", autoComplete: "off", spellCheck: false } as const;

/** The fields of one destination (docs/features/log-streams.md#destinations), named as lib/log-streams/destinations/input.ts reads them. */
export function DestinationFields({ kind, errors }: { kind: LogStreamKind; errors: Errors }) {
  switch (kind) {
    case "datadog":
      return (
        <>
          <FormField label="Site" error={errors.site?.[0]} description="The site in your Datadog address, such as app.datadoghq.eu.">
            <NativeSelect name="site" defaultValue="datadoghq.com">
              {DATADOG_SITES.map((site) => (
                <option key={site} value={site}>
                  {site}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField label="API key" error={errors.apiKey?.[0]} description="Organization settings → API keys: 32 characters.">
            <Input name="apiKey" {...secret} />
          </FormField>
          <FormField
            label="Intake URL (optional)"
            error={errors.intakeUrl?.[0]}
            description="Send to Observability Pipelines or another Datadog-compatible intake instead of the site's."
          >
            <Input name="intakeUrl" type="url" placeholder="https://http-intake.logs.datadoghq.com/api/v2/logs" autoComplete="off" />
          </FormField>
        </>
      );
    case "splunk":
      return (
        <>
          <FormField label="HTTP Event Collector URL" error={errors.url?.[0]}>
            <Input name="url" type="url" placeholder="https://splunk.example.com:8088" autoComplete="off" />
          </FormField>
          <FormField label="HEC token" error={errors.token?.[0]} description="A token allowed to write to the index you want the events in.">
            <Input name="token" {...secret} />
          </FormField>
        </>
      );
    case "s3":
      return (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Bucket" error={errors.bucket?.[0]}>
              <Input name="bucket" placeholder="acme-audit-logs" autoComplete="off" spellCheck={false} />
            </FormField>
            <FormField label="Region" error={errors.region?.[0]}>
              <Input name="region" placeholder="us-east-1" autoComplete="off" spellCheck={false} />
            </FormField>
          </div>
          <FormField label="Prefix (optional)" error={errors.prefix?.[0]} description="Folders the objects go under.">
            <Input name="prefix" placeholder="invoicing/audit" autoComplete="off" spellCheck={false} />
          </FormField>
          <FormField label="Endpoint (optional)" error={errors.endpoint?.[0]} description="For R2, MinIO or another S3-compatible store; empty for AWS.">
            <Input name="endpoint" type="url" placeholder="https://<account>.r2.cloudflarestorage.com" autoComplete="off" />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Access key ID" error={errors.accessKeyId?.[0]}>
              <Input name="accessKeyId" autoComplete="off" spellCheck={false} />
            </FormField>
            <FormField label="Secret access key" error={errors.secretAccessKey?.[0]}>
              <Input name="secretAccessKey" {...secret} />
            </FormField>
          </div>
        </>
      );
    case "https":
      return <HttpsFields errors={errors} />;
    case "otlp":
      return (
        <>
          <FormField label="OTLP/HTTP endpoint" error={errors.endpoint?.[0]} description="Logs are sent to this address followed by /v1/logs.">
            <Input name="endpoint" type="url" placeholder="https://otel.example.com:4318" autoComplete="off" />
          </FormField>
          <FormField label="Headers (optional)" error={errors.headers?.[0]} description="One Name: value a line, such as Authorization: Bearer …">
            <Textarea name="headers" rows={3} className="font-mono" autoComplete="off" spellCheck={false} />
          </FormField>
        </>
      );
  }
}

function HttpsFields({ errors }: { errors: Errors }) {
  const [signingSecret, setSigningSecret] = useState(newSigningSecret);
  return (
    <>
      <FormField label="Endpoint URL" error={errors.url?.[0]}>
        <Input name="url" type="url" placeholder="https://example.com/log-events" autoComplete="off" />
      </FormField>
      <FormField
        label="Signing secret"
        error={errors.signingSecret?.[0]}
        description="Batches are signed with it as webhooks are (Standard Webhooks). Copy it to your receiver, or paste one of yours."
      >
        <Input
          name="signingSecret"
          value={signingSecret}
          onChange={(event) => setSigningSecret(event.target.value)}
          className="font-mono"
          {...secret}
          type="text"
        />
      </FormField>
      <CopyButton value={signingSecret} label="Copy signing secret" showLabel size="sm" className="justify-self-start" />
    </>
  );
}
