import { afterEach, describe, expect, it } from "vitest";
import { checkServerPoolSize, poolMaxConnections } from "@/db";

// DATABASE_POOL_SIZE (docs/operations.md): one reading for every process, a server's at least 2.
describe("DATABASE_POOL_SIZE", () => {
  const configured = process.env.DATABASE_POOL_SIZE;
  afterEach(() => {
    if (configured === undefined) delete process.env.DATABASE_POOL_SIZE;
    else process.env.DATABASE_POOL_SIZE = configured;
  });

  it("is 10 connections unless set, and what it is set to", () => {
    delete process.env.DATABASE_POOL_SIZE;
    expect(poolMaxConnections()).toBe(10);
    process.env.DATABASE_POOL_SIZE = "1";
    expect(poolMaxConnections()).toBe(1);
  });

  it("refuses what is not a whole number of connections, saying what it is", () => {
    for (const value of ["ten", "2.5", "0", "-3"]) {
      process.env.DATABASE_POOL_SIZE = value;
      expect(() => poolMaxConnections()).toThrow(`DATABASE_POOL_SIZE must be a whole number of connections, at least 1 (it is "${value}").`);
    }
  });

  it("is at least 2 for a server, whose background task holds one connection for its lock while its work takes another", () => {
    process.env.DATABASE_POOL_SIZE = "1";
    expect(() => checkServerPoolSize()).toThrow(/at least 2/);
    process.env.DATABASE_POOL_SIZE = "2";
    expect(() => checkServerPoolSize()).not.toThrow();
  });
});
