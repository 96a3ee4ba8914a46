import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  addSsoDomainAction,
  removeSsoConnectionAction,
  removeSsoDomainAction,
  saveSsoConnectionAction,
  verifySsoDomainAction,
} from "@/app/[orgSlug]/settings/sso/actions";
import { ssoCredentials } from "@/core/sealed-secret";
import { getDb } from "@/db";
import { ssoConnections, ssoDomains } from "@/db/schema";
import { requireOrgAccess } from "@/lib/org-access";
import { ssoOverview } from "@/lib/sso/overview";
import { DnsServer } from "./helpers/dns-server";
import { createTeam, form } from "./helpers/factories";
import { startOidcProvider, type LocalOidcProvider } from "./helpers/oidc-provider";
import { actAs, actAsOutsideSudoMode, readAs } from "./helpers/session";
import { historyOf, must, ssoState } from "./helpers/sso";

// The single sign-on page's changes, called as the dashboard calls them (docs/features/sso.md), against a
// real OpenID provider and a DNS server of the test's own on 127.0.0.1. Loopback addresses pass the
// SSRF guard only where private addresses are allowed.

type Team = Awaited<ReturnType<typeof createTeam>>;
let provider: LocalOidcProvider;
const dns = new DnsServer();
let team: Team;

// What this file sets in process.env ends with it (tests/setup/database.ts).
beforeAll(async () => {
  provider = await startOidcProvider();
  await dns.start();
  process.env.SSO_DNS_SERVERS = dns.address;
});
afterAll(async () => {
  actAs(null);
  await provider.stop();
  await dns.stop();
});
beforeEach(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  team = await createTeam("enterprise");
  actAs(team.owner.id);
  dns.txt.clear();
});

let domains = 0;
/** A domain no other test of the file uses: domains are unique across organizations. */
const freshDomain = () => `corp${++domains}-${team.org.id.slice(-6).toLowerCase()}.example`;

const connectionForm = (values: Record<string, string> = {}) =>
  form({ orgId: team.org.id, issuer: provider.url, clientId: provider.clientId, clientSecret: provider.clientSecret, defaultRole: "member", ...values });
const entriesOf = (action: string) => historyOf(team.org.id, action);
const issuerRefused = (problem: unknown) => ({ ok: false, fieldErrors: { issuer: [problem] } });

/** Adds `domain` to the organization as its owner; its TXT record's name and value. */
async function addDomain(domain: string, org: Team = team) {
  actAs(org.owner.id);
  const { data } = must(await addSsoDomainAction(null, form({ orgId: org.org.id, domain })));
  const shown = (await ssoOverview(org.org.id)).domains.find((row) => row.id === data.id)!;
  return { id: data.id, name: shown.recordName, value: shown.recordValue };
}

/** Every change of the page, on the team's provider and `domainId`, one after another as the acting person. */
async function everyChange(domainId: string) {
  const input = { orgId: team.org.id, domainId };
  return [
    await saveSsoConnectionAction(null, connectionForm({ defaultRole: "admin" })),
    await removeSsoConnectionAction(null, { orgId: team.org.id }),
    await addSsoDomainAction(null, form({ orgId: team.org.id, domain: freshDomain() })),
    await verifySsoDomainAction(null, input),
    await removeSsoDomainAction(null, input),
  ];
}

describe("the identity provider", () => {
  it("is checked against the provider's discovery document; the secret is sealed, shown by its hint only, and never in the history", async () => {
    const result = must(await saveSsoConnectionAction(null, connectionForm()));
    expect(result.data.issuer).toBe(provider.issuer);
    const [row] = await getDb().select().from(ssoConnections).where(eq(ssoConnections.orgId, team.org.id));
    expect(row!.sealedClientSecret).not.toContain(provider.clientSecret);
    expect(ssoCredentials.open(row!.sealedClientSecret)).toBe(provider.clientSecret);

    const { connection } = await ssoOverview(team.org.id);
    expect(connection).toMatchObject({ issuer: provider.issuer, clientId: provider.clientId, secretHint: "…7Hq2", defaultRole: "member" });
    expect(connection!.createdByName).toBe(team.owner.name);
    expect(JSON.stringify(connection)).not.toContain(provider.clientSecret);
    const [entry] = await entriesOf("sso_connection.saved");
    expect(entry).toMatchObject({ actorUserId: team.owner.id, targetType: "sso_connection", targetId: connection!.id, targetName: provider.issuer });
    expect(entry!.after).toEqual({ issuer: provider.issuer, clientId: provider.clientId, defaultRole: "member" });
    expect(JSON.stringify(entry)).not.toContain(provider.clientSecret);
  });

  it("saved again, keeps its id and records the settings before and after", async () => {
    const first = must(await saveSsoConnectionAction(null, connectionForm()));
    must(await saveSsoConnectionAction(null, connectionForm({ defaultRole: "guest", clientSecret: "a-rotated-client-secret-9ZzX" })));
    const { connection } = await ssoOverview(team.org.id);
    expect(connection).toMatchObject({ id: first.data.id, defaultRole: "guest", secretHint: "…9ZzX" });
    const entries = await entriesOf("sso_connection.saved");
    expect(entries).toHaveLength(2);
    expect(entries.map((entry) => [entry.before?.defaultRole ?? null, entry.after?.defaultRole])).toContainEqual(["member", "guest"]);
  });

  it("refuses an issuer whose discovery document names another issuer", async () => {
    const impostor = await startOidcProvider({ issuerAt: (url) => url.replace("127.0.0.1", "localhost") });
    try {
      const result = await saveSsoConnectionAction(null, connectionForm({ issuer: impostor.url }));
      expect(result).toMatchObject(issuerRefused(expect.stringContaining(`calls itself “${impostor.issuer}”`)));
    } finally {
      await impostor.stop();
    }
    expect(await getDb().select().from(ssoConnections).where(eq(ssoConnections.orgId, team.org.id))).toEqual([]);
    expect(await entriesOf("sso_connection.saved")).toEqual([]);
  });

  it("refuses an address with no discovery document, or where nothing answers, saying what it found", async () => {
    const missing = await saveSsoConnectionAction(null, connectionForm({ issuer: `${provider.url}/tenants/none` }));
    const document = `${provider.url}/tenants/none/.well-known/openid-configuration`;
    expect(missing).toMatchObject(issuerRefused(`No OpenID discovery document at ${document}: the server answered HTTP 404. Check the issuer URL.`));
    const closed = await saveSsoConnectionAction(null, connectionForm({ issuer: "http://127.0.0.1:9" }));
    expect(closed).toMatchObject(issuerRefused("Nothing answers at http://127.0.0.1:9."));
    expect(await ssoOverview(team.org.id)).toEqual({ connection: null, domains: [] });
  });

  it("refuses an issuer on a loopback address unless private addresses are allowed", async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    const result = await saveSsoConnectionAction(null, connectionForm());
    expect(result).toMatchObject(issuerRefused(expect.stringContaining("127.0.0.1 resolves to 127.0.0.1, a private, loopback or reserved address")));
    expect((await ssoOverview(team.org.id)).connection).toBeNull();
  });

  it("refuses bad input field by field and changes nothing", async () => {
    const before = await ssoState(team.org.id);
    const result = await saveSsoConnectionAction(
      null,
      connectionForm({ issuer: "ftp://login.example.com", clientId: " ", clientSecret: "", defaultRole: "owner" }),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.fieldErrors ?? {}).sort()).toEqual(["clientId", "clientSecret", "defaultRole", "issuer"]);
    for (const [issuer, problem] of [
      [`${provider.url}/.well-known/openid-configuration`, "without /.well-known/openid-configuration"],
      [`${provider.url}/?tenant=1`, "no ?query or #fragment"],
      ["login.example.com", "full URL"],
    ] as const) {
      const refused = await saveSsoConnectionAction(null, connectionForm({ issuer }));
      expect(refused).toMatchObject(issuerRefused(expect.stringContaining(problem)));
    }
    expect(await ssoState(team.org.id)).toBe(before);
  });

  it("is removed with its secret, the removal kept in the history", async () => {
    must(await saveSsoConnectionAction(null, connectionForm()));
    expect(await removeSsoConnectionAction(null, { orgId: team.org.id })).toMatchObject({ ok: true });
    expect(await getDb().select().from(ssoConnections).where(eq(ssoConnections.orgId, team.org.id))).toEqual([]);
    const [entry] = await entriesOf("sso_connection.removed");
    expect(entry!.before).toEqual({ issuer: provider.issuer, clientId: provider.clientId, defaultRole: "member" });
    expect(await removeSsoConnectionAction(null, { orgId: team.org.id })).toEqual({
      ok: false,
      error: "This organization has no single sign-on provider to remove.",
    });
  });
});

describe("email domains", () => {
  it("are added in lower case without a trailing dot, each with a TXT record to publish", async () => {
    const domain = freshDomain();
    const result = must(await addSsoDomainAction(null, form({ orgId: team.org.id, domain: `  ${domain.toUpperCase()}. ` })));
    expect(result.data.domain).toBe(domain);
    const [shown] = (await ssoOverview(team.org.id)).domains;
    expect(shown).toMatchObject({ domain, recordName: `_invoicing-verification.${domain}`, verifiedAt: null });
    expect(shown!.recordValue).toMatch(/^invoicing-verification=[0-9A-Za-z]{32}$/);
    expect((await entriesOf("sso_domain.added"))[0]).toMatchObject({ targetType: "sso_domain", targetName: domain, after: { domain, verified: false } });
    expect(await addSsoDomainAction(null, form({ orgId: team.org.id, domain }))).toMatchObject({ fieldErrors: { domain: [`${domain} is added already.`] } });
  });

  it("refuse malformed domains and public email providers, and change nothing", async () => {
    const before = await ssoState(team.org.id);
    for (const [domain, problem] of [
      ["https://example.com", "Enter the domain alone"],
      ["someone@example.com", "Enter the domain alone"],
      ["localhost", "Enter a domain such as example.com"],
      ["-bad-.example", "Enter a domain such as example.com"],
      ["192.0.2.1", "Enter a domain such as example.com"],
      ["Gmail.com", "gmail.com is a public email provider's"],
      ["proton.me", "proton.me is a public email provider's"],
      ["", "Enter your email domain"],
    ] as const) {
      const result = await addSsoDomainAction(null, form({ orgId: team.org.id, domain }));
      expect(result, domain).toMatchObject({ ok: false, fieldErrors: { domain: [expect.stringContaining(problem)] } });
    }
    expect(await ssoState(team.org.id)).toBe(before);
  });

  it("are at most 10 an organization, even when added at once", async () => {
    const names = Array.from({ length: 11 }, () => freshDomain());
    const results = await Promise.all(names.map((domain) => addSsoDomainAction(null, form({ orgId: team.org.id, domain }))));
    expect(results.filter((result) => result.ok)).toHaveLength(10);
    expect(results.find((result) => !result.ok)).toMatchObject({ error: expect.stringContaining("at most 10 domains") });
    expect((await ssoOverview(team.org.id)).domains).toHaveLength(10);
  });

  it("are verified by their TXT record, looked up on the DNS server the settings name", async () => {
    const domain = freshDomain();
    const record = await addDomain(domain);
    dns.txt.set(record.name, ["v=spf1 -all", record.value]);
    const result = must(await verifySsoDomainAction(null, { orgId: team.org.id, domainId: record.id }));
    expect(result.data.verifiedAt).toBeInstanceOf(Date);
    expect(dns.questions).toContain(`TXT ${record.name}`);
    expect((await ssoOverview(team.org.id)).domains[0]).toMatchObject({ domain, verifiedAt: expect.any(Date) });
    expect((await entriesOf("sso_domain.verified"))[0]).toMatchObject({ targetId: record.id, targetName: domain, after: { verified: true } });
    expect(await verifySsoDomainAction(null, { orgId: team.org.id, domainId: record.id })).toEqual({ ok: false, error: `${domain} is verified already.` });
  });

  it("are not verified without the record, or with another value, and the refusal says what the lookup found", async () => {
    const record = await addDomain(freshDomain());
    const verify = () => verifySsoDomainAction(null, { orgId: team.org.id, domainId: record.id });
    expect(await verify()).toEqual({
      ok: false,
      error: expect.stringMatching(new RegExp(`^No TXT record was found at ${record.name.replaceAll(".", "\\.")}\\.`)),
    });
    dns.txt.set(record.name, ["invoicing-verification=not-the-token"]);
    expect(await verify()).toEqual({
      ok: false,
      error: `The TXT records at ${record.name} are “invoicing-verification=not-the-token”, none of them ${record.value}. Check the record's value.`,
    });
    expect((await ssoOverview(team.org.id)).domains[0]!.verifiedAt).toBeNull();
    expect(await entriesOf("sso_domain.verified")).toEqual([]);
  });

  it("verified by another organization are refused, when added and when verified", async () => {
    const domain = freshDomain();
    const other = await createTeam("pro");
    const late = await addDomain(domain, other);
    const first = await addDomain(domain);
    dns.txt.set(first.name, [first.value, late.value]);
    must(await verifySsoDomainAction(null, { orgId: team.org.id, domainId: first.id }));

    const taken = `${domain} is verified by another organization. A domain can belong to one organization only.`;
    actAs(other.owner.id);
    expect(await verifySsoDomainAction(null, { orgId: other.org.id, domainId: late.id })).toEqual({ ok: false, error: taken });
    const third = await createTeam("pro");
    actAs(third.owner.id);
    expect(await addSsoDomainAction(null, form({ orgId: third.org.id, domain }))).toMatchObject({ ok: false, fieldErrors: { domain: [taken] } });
  });

  it("verified by two organizations at once: one wins, the other is refused", async () => {
    const domain = freshDomain();
    const other = await createTeam("pro");
    const ours = await addDomain(domain);
    const theirs = await addDomain(domain, other);
    dns.txt.set(ours.name, [ours.value, theirs.value]);
    // Each call reads who is acting as it starts, so the two run as their own owners side by side.
    actAs(team.owner.id);
    const first = verifySsoDomainAction(null, { orgId: team.org.id, domainId: ours.id });
    actAs(other.owner.id);
    const second = verifySsoDomainAction(null, { orgId: other.org.id, domainId: theirs.id });
    const results = await Promise.all([first, second]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toEqual({ ok: false, error: expect.stringContaining("is verified by another organization") });
    const verified = await getDb().select().from(ssoDomains).where(eq(ssoDomains.domain, domain));
    expect(verified.filter((row) => row.verifiedAt !== null)).toHaveLength(1);
  });

  it("are removed, the removal kept in the history; a removed domain is free for another organization", async () => {
    const domain = freshDomain();
    const record = await addDomain(domain);
    dns.txt.set(record.name, [record.value]);
    must(await verifySsoDomainAction(null, { orgId: team.org.id, domainId: record.id }));
    expect(await removeSsoDomainAction(null, { orgId: team.org.id, domainId: record.id })).toMatchObject({ ok: true, data: { domain } });
    expect((await entriesOf("sso_domain.removed"))[0]).toMatchObject({ targetName: domain, before: { domain, verified: true } });
    expect(await removeSsoDomainAction(null, { orgId: team.org.id, domainId: record.id })).toEqual({ ok: false, error: "This domain was not found." });

    const other = await createTeam("pro");
    const theirs = await addDomain(domain, other);
    dns.txt.set(theirs.name, [theirs.value]);
    expect(await verifySsoDomainAction(null, { orgId: other.org.id, domainId: theirs.id })).toMatchObject({ ok: true });
  });
});

describe("another organization", () => {
  it("never reaches this organization's provider or domains", async () => {
    must(await saveSsoConnectionAction(null, connectionForm()));
    const record = await addDomain(freshDomain());
    dns.txt.set(record.name, [record.value]);
    const before = await ssoState(team.org.id);
    const other = await createTeam("pro");
    actAs(other.owner.id);
    // This organization's id is not one of theirs; with their own, the domain is not one of its.
    for (const result of await everyChange(record.id)) expect(result).toEqual({ ok: false, error: "Organization not found." });
    for (const change of [verifySsoDomainAction, removeSsoDomainAction])
      expect(await change(null, { orgId: other.org.id, domainId: record.id })).toEqual({ ok: false, error: "This domain was not found." });
    expect(await ssoState(team.org.id)).toBe(before);
  });
});

describe("who may", () => {
  it.each(["admin", "member", "guest"] as const)("a %s can neither see the page nor change anything", async (role) => {
    const record = await addDomain(freshDomain());
    must(await saveSsoConnectionAction(null, connectionForm()));
    const before = await ssoState(team.org.id);
    actAs(team[role].id);
    for (const result of await everyChange(record.id)) expect(result).toEqual({ ok: false, error: "Only owners can set up single sign-on." });
    await expect(readAs(team[role].id, () => requireOrgAccess(team.org.slug, "sso.manage"))).rejects.toMatchObject({ digest: expect.stringMatching(/404/) });
    expect(await ssoState(team.org.id)).toBe(before);
  });

  it("an owner out of sudo mode is asked who they are for every change, and nothing changes", async () => {
    const record = await addDomain(freshDomain());
    dns.txt.set(record.name, [record.value]);
    must(await saveSsoConnectionAction(null, connectionForm()));
    const before = await ssoState(team.org.id);
    actAsOutsideSudoMode(team.owner.id);
    for (const result of await everyChange(record.id))
      expect(result).toEqual({ ok: false, reauthenticate: true, error: expect.stringContaining("Confirm it's you") });
    expect(await ssoState(team.org.id)).toBe(before);
    actAs(team.owner.id);
    expect(await verifySsoDomainAction(null, { orgId: team.org.id, domainId: record.id })).toMatchObject({ ok: true });
  });
});
