import { describe, expect, it } from "vitest";
import { isParameter, parameters, UsageError } from "./arguments.js";

describe("parameters from the command line", () => {
  it("reads text, JSON, nested objects and list items", () => {
    expect(
      parameters([
        "name=Jane Doe GmbH",
        "postal=01067",
        "address.city=Berlin",
        "lines[0].description=Consulting",
        "lines[0].quantity:=3",
        "lines[1].unit_amount:=250",
        "active:=false",
        "notes:=null",
        "note=a=b",
      ]),
    ).toEqual({
      name: "Jane Doe GmbH",
      postal: "01067",
      address: { city: "Berlin" },
      lines: [{ description: "Consulting", quantity: 3 }, { unit_amount: 250 }],
      active: false,
      notes: null,
      note: "a=b",
    });
  });

  it("lays the words over a --data object", () => {
    expect(parameters(["currency=USD"], '{"name":"Acme","currency":"EUR"}')).toEqual({ name: "Acme", currency: "USD" });
  });

  it("tells an id from a parameter", () => {
    expect(isParameter("cus_123")).toBe(false);
    expect(isParameter("limit:=5")).toBe(true);
    expect(isParameter("search=a b")).toBe(true);
  });

  it("refuses what it cannot read, saying how to write it", () => {
    expect(() => parameters(["quantity:=two"])).toThrow(new UsageError("quantity:= takes JSON, and two is not JSON (write quantity=… for text)."));
    expect(() => parameters(["cus_123"])).toThrow(/"cus_123" is not a parameter: write key=text or key:=json\./);
    expect(() => parameters(["a..b=1"])).toThrow(/"a\.\.b" is not a parameter name/);
    expect(() => parameters([], "[1,2]")).toThrow(/--data takes a JSON object\./);
  });
});
