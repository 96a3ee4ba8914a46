import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { connection, Invoicing, InvoicingError, SDK_VERSION } from "@invoicing/sdk";
import { isParameter, parameters, UsageError } from "./arguments.js";
import { COMMANDS, DEFAULT_ACTIONS, type CommandResult } from "./commands.js";
import { listText, objectText } from "./output.js";

export interface Streams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
}

const OPTIONS = {
  json: { type: "boolean" },
  all: { type: "boolean" },
  out: { type: "string", short: "o" },
  data: { type: "string", short: "d" },
  "api-key": { type: "string" },
  "base-url": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

function help(): string {
  const commands = Object.entries(COMMANDS).flatMap(([resource, actions]) =>
    Object.entries(actions).map(([action, command]) => `  ${`${resource} ${action}${command.id ? ` <${command.id}>` : ""}`.padEnd(30)} ${command.summary}`),
  );
  return `invoicing: the Invoicing API from the command line (docs/features/cli.md)

Usage: invoicing <resource> <action> [id] [key=text | key:=json …] [options]
       invoicing mcp        an MCP server over stdio for AI assistants

Commands:
${commands.join("\n")}

Options:
  --json               print the API's JSON, for scripts
  --all                every page of a list, not only the first
  -o, --out <file>     where a PDF goes
  -d, --data <json>    the request's parameters as one JSON object
  --api-key <key>      the API key (default: INVOICING_API_KEY)
  --base-url <url>     where the API is (default: INVOICING_BASE_URL, then http://localhost:3000)

Examples:
  invoicing customers create name="Jane Doe GmbH" currency=EUR email=jane@example.com
  invoicing invoices create customer=cus_… 'lines[0].description=Consulting' 'lines[0].quantity:=1' 'lines[0].unit_amount:=10000'
  invoicing invoices finalize in_… && invoicing invoices pdf in_… --out invoice.pdf
  invoicing invoices list status=open --all --json`;
}

/** The key and the API's address from the options, else the environment; their absence is a command line to correct. */
function settings(values: { "api-key"?: string; "base-url"?: string }): { apiKey: string; baseUrl: string } {
  try {
    return connection({ apiKey: values["api-key"], baseUrl: values["base-url"] });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

async function print(result: CommandResult, values: { json?: boolean; out?: string }, streams: Streams): Promise<void> {
  if (result.kind === "bytes") {
    if (values.out) {
      await writeFile(values.out, result.bytes);
      return void streams.stderr.write(`Wrote ${values.out} (${(result.bytes.byteLength / 1024).toFixed(1)} KiB).\n`);
    }
    if (streams.stdout.isTTY) throw new UsageError("A PDF is no text for a terminal: add --out invoice.pdf, or send the output to a file.");
    return void streams.stdout.write(result.bytes);
  }
  const value = result.kind === "list" ? result.page : result.value;
  if (values.json) return void streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  const text =
    result.kind === "list" ? listText(result.page.data as Record<string, unknown>[], result.page.has_more) : objectText(value as Record<string, unknown>);
  streams.stdout.write(`${text}\n`);
}

/** One line a person can act on: what happened, the code to match, the request id to quote; then a validation error's fields. */
function errorText(error: InvoicingError): string {
  const request = error.requestId ? `, request ${error.requestId}` : "";
  const details = error.details.map((detail) => `\n  ${detail.path || "(body)"}: ${detail.message}`).join("");
  return `Error: ${error.message} (${error.code}${request})${details}\n`;
}

/** Runs one command line; the exit code: 0 done, 1 refused or failed by the API, 2 a command line to correct. */
export async function main(argv: string[], streams: Streams = process): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
    if (values.version) {
      streams.stdout.write(`${SDK_VERSION}\n`);
      return 0;
    }
    const [resource, ...rest] = positionals;
    if (values.help || !resource) {
      streams.stdout.write(`${help()}\n`);
      return values.help ? 0 : 2;
    }
    if (resource === "mcp") {
      const { serveMcpOverStdio } = await import("./mcp-bridge.js");
      return await serveMcpOverStdio(settings(values));
    }
    const actions = COMMANDS[resource];
    if (!actions) throw new UsageError(`No resource "${resource}": use ${Object.keys(COMMANDS).join(", ")} or mcp.`);
    const action = rest[0] && actions[rest[0]] ? rest.shift()! : DEFAULT_ACTIONS[resource];
    const command = action ? actions[action] : undefined;
    if (!command) throw new UsageError(`No action "${rest[0] ?? ""}" for ${resource}: use ${Object.keys(actions).join(", ")}.`);
    const id = rest[0] && !isParameter(rest[0]) ? rest.shift() : undefined;
    const input = { id, params: parameters(rest, values.data), all: values.all ?? false };
    await print(await command.run(new Invoicing(settings(values)), input), values, streams);
    return 0;
  } catch (error) {
    if (error instanceof InvoicingError) {
      streams.stderr.write(errorText(error));
      return 1;
    }
    // parseArgs refuses an unknown option with a TypeError coded ERR_PARSE_ARGS_…: a command line to correct, like ours.
    const parseError = error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS");
    if (!(error instanceof UsageError) && !parseError) throw error;
    streams.stderr.write(`invoicing: ${(error as Error).message}\nRun invoicing --help for the commands.\n`);
    return 2;
  }
}
