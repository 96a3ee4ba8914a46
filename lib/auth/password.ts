import { hash, verify } from "@node-rs/bcrypt";

// Native bcrypt on libuv's thread pool: a check costs ~100 ms of CPU, which bcryptjs spent on the
// event loop in 100 ms slices, stalling every other request meanwhile (50 ms at most).
// Hashes stay $2b$, so those already stored keep working.
const COST = 11;

export function hashPassword(password: string): Promise<string> {
  return hash(password, COST);
}

export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return verify(password, stored);
}

// Compared against when the email is unknown, so both paths take the same time.
const DUMMY_HASH = "$2b$11$C6UzMDM.H6dfI/f/IKcEe.4WQ3vDw1sQn6wRh3O3tYQh8v1J9b9xK";
export async function verifyAgainstNothing(password: string): Promise<false> {
  await verify(password, DUMMY_HASH);
  return false;
}
