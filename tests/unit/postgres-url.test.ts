import { describe, expect, it } from "vitest";
import { parsePostgresUrl, postgresTarget } from "@/db/postgres-url";

describe("a DATABASE_URL as postgres.js connects to it", () => {
  it("takes a Unix socket named as libpq names it as the socket's path, the host left out or not", () => {
    expect(postgresTarget("postgres:///invoicing?host=/var/run/postgresql")).toEqual({
      url: "postgres://localhost/invoicing",
      path: "/var/run/postgresql/.s.PGSQL.5432",
    });
    expect(postgresTarget("postgresql://app:secret@/invoicing?host=/tmp&sslmode=disable")).toEqual({
      url: "postgresql://app:secret@localhost/invoicing?sslmode=disable",
      path: "/tmp/.s.PGSQL.5432",
    });
    expect(postgresTarget("postgres://app@localhost:5433/invoicing?host=/run/pg")).toEqual({
      url: "postgres://app@localhost:5433/invoicing",
      path: "/run/pg/.s.PGSQL.5433",
    });
  });

  it("leaves a URL of a TCP host as it is", () => {
    for (const url of ["postgres://postgres@127.0.0.1:5432/invoicing", "postgres://app@db.internal/invoicing?host=db2.internal&sslmode=require"]) {
      expect(postgresTarget(url)).toEqual({ url });
    }
  });

  it("reads a URL without a host as localhost", () => {
    expect(parsePostgresUrl("postgresql://app@/invoicing?host=/tmp").hostname).toBe("localhost");
    expect(parsePostgresUrl("postgres:///invoicing").pathname).toBe("/invoicing");
    expect(parsePostgresUrl("postgres://db.internal:6432/invoicing").host).toBe("db.internal:6432");
  });
});
